/**
 * What users pick instead when they want Postgres only: pg-boss 10 (11+ needs Node 22). Given
 * its best settings for throughput: batch fetch, an immediate re-fetch after a full batch, and
 * its shortest polling interval otherwise. Run as a worker process, or produce with `producePgBossJobs`.
 */
import { Client } from 'pg';
import PgBoss from 'pg-boss';
import { BENCH_ENV } from '../bench-env';
import { LagReporter } from './baseline-process';

const QUEUE = 'pgboss-baseline';
const SCHEMA = 'pgboss_bench';

/** pg-boss's settings in this benchmark, printed beside its figures. */
export const PG_BOSS_SETTINGS = { version: '10.x', batchSize: Number(BENCH_ENV.WORKER_CONCURRENCY), refetchAfterFullBatch: true, pollingIntervalMs: 500 };

async function boss(databaseUrl: string): Promise<PgBoss> {
  const instance = new PgBoss({ connectionString: databaseUrl, schema: SCHEMA, supervise: false, schedule: false });
  instance.on('error', (error) => process.stderr.write(`pg-boss: ${error.message}\n`));
  await instance.start();
  return instance;
}

export async function producePgBossJobs(databaseUrl: string, dueTimes: number[]): Promise<void> {
  const instance = await boss(databaseUrl);
  for (let from = 0; from < dueTimes.length; from += 1000) {
    await instance.insert(dueTimes.slice(from, from + 1000).map((due) => ({ name: QUEUE, data: { due }, startAfter: new Date(due) })));
  }
  await instance.stop({ graceful: false, wait: true });
}

/** A fresh pg-boss schema and queue, made before its workers start (they would race to create them). */
export async function resetPgBoss(databaseUrl: string): Promise<void> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  await db.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
  await db.end();
  const instance = await boss(databaseUrl);
  await instance.createQueue(QUEUE);
  await instance.stop({ graceful: false, wait: true });
}

async function work(): Promise<void> {
  const instance = await boss(process.env.DATABASE_URL!);
  const reporter = new LagReporter();
  let stopping = false;
  process.on('SIGTERM', () => (stopping = true));
  process.stdout.write('ready\n');
  while (!stopping) {
    const jobs = await instance.fetch<{ due: number }>(QUEUE, { batchSize: PG_BOSS_SETTINGS.batchSize });
    const started = Date.now();
    for (const job of jobs) reporter.record(started - job.data.due);
    if (jobs.length > 0) {
      await instance.complete(
        QUEUE,
        jobs.map((job) => job.id),
      );
      reporter.completed(jobs.length);
    }
    if (jobs.length < PG_BOSS_SETTINGS.batchSize) await new Promise((resolve) => setTimeout(resolve, PG_BOSS_SETTINGS.pollingIntervalMs));
  }
  reporter.stop();
  await instance.stop({ graceful: false, wait: true });
  process.exit(0);
}

if (require.main === module) void work();
