/**
 * What users pick instead when they want Postgres only: pg-boss at its current major, given its
 * best settings for throughput: its own workers fetching and completing in batches, as many jobs
 * in flight per process as Punctual's worker, an immediate re-fetch after a full batch,
 * LISTEN/NOTIFY wake-ups, and its shortest polling interval otherwise. Run as a worker process,
 * or produce with `producePgBossJobs`.
 */
import { Client } from 'pg';
import { PgBoss } from 'pg-boss';
import { version } from 'pg-boss/package.json';
import { BENCH_ENV } from '../bench-env';
import { LagReporter } from './baseline-process';

const QUEUE = 'pgboss-baseline';
const SCHEMA = 'pgboss_bench';
const IN_FLIGHT = Number(BENCH_ENV.WORKER_CONCURRENCY);
// Several fetch loops per process, so one batch's completion overlaps the next one's fetch.
const FETCH_LOOPS = 5;

/** pg-boss's settings in this benchmark, printed beside its figures. */
export const PG_BOSS_SETTINGS = {
  version,
  batchSize: IN_FLIGHT / FETCH_LOOPS,
  localConcurrency: FETCH_LOOPS,
  burstWhenBatchFull: true,
  listenNotify: true,
  pollingIntervalSeconds: 0.5,
};

async function boss(databaseUrl: string): Promise<PgBoss> {
  const instance = new PgBoss({ connectionString: databaseUrl, schema: SCHEMA, supervise: false, schedule: false, useListenNotify: true });
  instance.on('error', (error) => process.stderr.write(`pg-boss: ${error.message}\n`));
  await instance.start();
  return instance;
}

export async function producePgBossJobs(databaseUrl: string, dueTimes: number[]): Promise<void> {
  const instance = await boss(databaseUrl);
  for (let from = 0; from < dueTimes.length; from += 1000) {
    await instance.insert(
      QUEUE,
      dueTimes.slice(from, from + 1000).map((due) => ({ data: { due }, startAfter: new Date(due) })),
    );
  }
  await instance.stop({ graceful: false });
}

/** A fresh pg-boss schema and queue, made before its workers start (they would race to create them). */
export async function resetPgBoss(databaseUrl: string): Promise<void> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  await db.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
  await db.end();
  const instance = await boss(databaseUrl);
  await instance.createQueue(QUEUE, { notify: true });
  await instance.stop({ graceful: false });
}

/**
 * How many jobs pg-boss has recorded completed, read with `db`: its workers complete a batch
 * after the handler returns and tell nobody when that has committed.
 */
export async function completedPgBossJobs(db: Client): Promise<number> {
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${SCHEMA}.job WHERE name = $1 AND state = 'completed'`, [QUEUE]);
  return rows[0].n;
}

async function work(): Promise<void> {
  const instance = await boss(process.env.DATABASE_URL!);
  const reporter = new LagReporter();
  const { batchSize, localConcurrency, burstWhenBatchFull, pollingIntervalSeconds } = PG_BOSS_SETTINGS;
  await instance.work<{ due: number }>(
    QUEUE,
    { batchSize, localConcurrency, burstWhenBatchFull, pollingIntervalSeconds, notifyPollingIntervalSeconds: pollingIntervalSeconds },
    async (jobs) => {
      const started = Date.now();
      for (const job of jobs) reporter.record(started - job.data.due);
    },
  );
  process.on('SIGTERM', () => void instance.stop({ graceful: false }).then(() => (reporter.stop(), process.exit(0))));
  process.stdout.write('ready\n');
}

if (require.main === module) void work();
