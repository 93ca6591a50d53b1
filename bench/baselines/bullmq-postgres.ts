/**
 * BullMQ 6 on its PostgreSQL backend: BullMQ's queue, workers and delayed jobs with Postgres as
 * the only store (`FOR UPDATE SKIP LOCKED` claims, `LISTEN/NOTIFY` wake-ups), from the same `bullmq`
 * package Punctual queues with on Redis. Run as a worker process, or produce with
 * `produceBullmqPgJobs`.
 */
import { Client } from 'pg';
import { createPostgresBackend, runMigrations, withBackend } from 'bullmq';
import { version } from 'bullmq/package.json';
import { ensureDatabase } from '@app/database';
import { BENCH_ENV } from '../bench-env';
import { addDelayedJobs, runNoopWorker } from './bullmq-jobs';

const QUEUE = 'bullmq-pg-baseline';
// BullMQ's default schema.
const SCHEMA = 'bullmq';

/** Its settings in this benchmark, printed beside its figures: the pool is node-postgres's default size, which BullMQ keeps. */
export const BULLMQ_PG_SETTINGS = { version, concurrency: Number(BENCH_ENV.WORKER_CONCURRENCY), poolSize: 10, removeOnComplete: true };

const { Queue, Worker } = withBackend(createPostgresBackend);

/** Each queue and worker has a pool of its own, plus one connection for LISTEN. */
const connection = (databaseUrl: string) => ({ connectionString: databaseUrl, schema: SCHEMA, max: BULLMQ_PG_SETTINGS.poolSize });

export async function produceBullmqPgJobs(databaseUrl: string, dueTimes: number[]): Promise<void> {
  const queue = new Queue<{ due: number }>(QUEUE, { connection: connection(databaseUrl) });
  await addDelayedJobs(queue, dueTimes);
  await queue.close();
}

/** Its database created when missing, and its schema dropped and migrated afresh (BullMQ 6 migrates only when told to). */
export async function resetBullmqPg(databaseUrl: string): Promise<void> {
  await ensureDatabase(databaseUrl);
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
    await runMigrations(db, SCHEMA);
  } finally {
    await db.end();
  }
}

if (require.main === module) {
  runNoopWorker(
    (processor) =>
      new Worker<{ due: number }>(QUEUE, processor, { connection: connection(process.env.DATABASE_URL!), concurrency: BULLMQ_PG_SETTINGS.concurrency }),
  );
}
