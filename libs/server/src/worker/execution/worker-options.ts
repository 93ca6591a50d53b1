import { WorkerOptions } from 'bullmq';
import { FulfillmentOptions } from '@punctual/sdk';
import { PunctualConfig, queuePrefixOf } from '@app/config';
import { queueConnection } from '@app/scheduling';
import { bullmqTelemetry } from '@app/observability';
import { WEBHOOK_QUEUE } from '@app/webhooks';

/**
 * What a BullMQ worker consumes: the queue of an action type (with the rate limit its fulfillment
 * declares, which ACTION_RATE_LIMITS overrides), or the webhook queue.
 */
export type ConsumedQueue = { actionType: string; rateLimit: FulfillmentOptions['rateLimit'] } | 'webhooks';

/**
 * The options of every BullMQ worker of this process. Each has a Redis connection of its own that
 * waits out an outage rather than failing its commands, and a job whose worker died is handed to
 * another once the job's lock lapses: a lock as long as the claim it stands for, so that the
 * claim can be taken over by then.
 */
export function workerOptions(config: PunctualConfig, queue: ConsumedQueue): WorkerOptions {
  const common = {
    connection: queueConnection(config.redis, { maxRetriesPerRequest: null }),
    prefix: queuePrefixOf(config.redis.queuePrefix, queue === 'webhooks' ? WEBHOOK_QUEUE : queue.actionType),
  };
  // A job's lock lasts as long as the lease on the claim it stands for, actions' and deliveries' alike.
  const lock = { lockDuration: config.scheduling.claimLeaseMs, stalledInterval: config.scheduling.claimLeaseMs };
  if (queue === 'webhooks') {
    // Delivery jobs are not traced.
    return { ...common, ...lock, concurrency: config.webhooks.concurrency };
  }
  const limit = config.worker.rateLimits.get(queue.actionType) ?? queue.rateLimit;
  return {
    ...common,
    ...lock,
    concurrency: config.worker.concurrency,
    limiter: limit ? { max: limit.max, duration: limit.durationMs } : undefined,
    telemetry: bullmqTelemetry(),
  };
}
