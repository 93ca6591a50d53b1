import { QueueOptions } from 'bullmq';
import { PunctualConfig } from '@app/config';
import { bullmqTelemetry } from '@app/observability';
import { queueConnection } from './queue-connection';

/**
 * A completed job is removed as it completes: Postgres holds every outcome and the history, and
 * keeping the last ones for the admin UI made each completion also add to and trim the completed
 * set. Failed jobs (an attempt that failed, or Postgres or Redis unreachable) stay a day for
 * diagnosis, at most 5,000 per queue, so that a failing destination cannot fill Redis.
 */
const FINISHED_JOBS = { removeOnComplete: true, removeOnFail: { age: 24 * 3600, count: 5000 } };

/** What every queue of Punctual is made with: the registered ones (through BullModule's root) and those made on demand (ActionQueues). */
export function queueDefaults(config: PunctualConfig): QueueOptions {
  return {
    // Producers fail fast when Redis is down; the reconciler queues the action later.
    connection: queueConnection(config.redis, { enableOfflineQueue: false }),
    // A job is tried again only when Postgres or Redis was unreachable, as the outage passes; a
    // failed attempt fails its job without a BullMQ retry (its retries are the action's, in Postgres).
    defaultJobOptions: { attempts: 6, backoff: { type: 'exponential', delay: 500 }, ...FINISHED_JOBS },
    telemetry: bullmqTelemetry(),
  };
}
