/**
 * Graphile Worker: a Postgres-only queue of the fastest family, given its batching: a local queue
 * that locks and fetches jobs in batches for as many jobs in flight as Punctual's worker, and
 * completions gathered into batches; LISTEN/NOTIFY wake-ups, and a polling interval as short as
 * pg-boss's for the jobs that come due later. Run as a worker process, or produce with
 * `produceGraphileJobs`.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client } from 'pg';
import { Logger, makeWorkerUtils, run, runMigrations } from 'graphile-worker';
import { BENCH_ENV } from '../bench-env';
import { LagReporter } from './baseline-process';

const TASK = 'noop';
const SCHEMA = 'graphile_bench';
const IN_FLIGHT = Number(BENCH_ENV.WORKER_CONCURRENCY);
// Its package exports no package.json.
const { version } = JSON.parse(readFileSync(join(dirname(require.resolve('graphile-worker')), '..', 'package.json'), 'utf8')) as { version: string };

/** Graphile Worker's settings in this benchmark, printed beside its figures. */
export const GRAPHILE_SETTINGS = {
  version,
  concurrentJobs: IN_FLIGHT,
  localQueueSize: IN_FLIGHT,
  // Gathers the completions of one turn of the event loop into one statement.
  completeJobBatchDelay: 0,
  pollInterval: 500,
  // The local queue fetches and completions are batched, so a few connections serve every job in
  // flight (it warns below concurrentJobs + 2, which would be 500 connections a process).
  maxPoolSize: 10,
};

/** Its warnings and errors only: it would log a line per job. */
const logger = new Logger(() => (level, message) => {
  if (level === 'error' || level === 'warning') process.stderr.write(`graphile-worker: ${message}\n`);
});

/** Jobs added since the schema was made: Graphile Worker deletes a job once it has completed it. */
let produced = 0;

export async function produceGraphileJobs(databaseUrl: string, dueTimes: number[]): Promise<void> {
  const utils = await makeWorkerUtils({ connectionString: databaseUrl, schema: SCHEMA, logger });
  try {
    for (let from = 0; from < dueTimes.length; from += 1000) {
      const batch = dueTimes.slice(from, from + 1000);
      await utils.addJobs(batch.map((due) => ({ identifier: TASK, payload: { due }, runAt: new Date(due) })));
      produced += batch.length;
    }
  } finally {
    await utils.release();
  }
}

/** A fresh schema, migrated before its workers start (they would race to migrate it). */
export async function resetGraphile(databaseUrl: string): Promise<void> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  await db.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
  await db.end();
  await runMigrations({ connectionString: databaseUrl, schema: SCHEMA, logger });
  produced = 0;
}

/**
 * How many of the jobs added have been completed, read with `db`: its workers complete in batches
 * after the task returns and tell nobody when that has committed.
 */
export async function completedGraphileJobs(db: Client): Promise<number> {
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${SCHEMA}._private_jobs`);
  return produced - rows[0].n;
}

async function work(): Promise<void> {
  const reporter = new LagReporter();
  const { concurrentJobs, localQueueSize, completeJobBatchDelay, pollInterval, maxPoolSize } = GRAPHILE_SETTINGS;
  const runner = await run({
    logger,
    noHandleSignals: true,
    taskList: {
      [TASK]: async (payload) => reporter.record(Date.now() - (payload as { due: number }).due),
    },
    preset: {
      worker: {
        connectionString: process.env.DATABASE_URL!,
        schema: SCHEMA,
        concurrentJobs,
        localQueue: { size: localQueueSize },
        completeJobBatchDelay,
        pollInterval,
        maxPoolSize,
      },
    },
  });
  process.on('SIGTERM', () => void runner.stop().then(() => (reporter.stop(), process.exit(0))));
  process.stdout.write('ready\n');
}

if (require.main === module) void work();
