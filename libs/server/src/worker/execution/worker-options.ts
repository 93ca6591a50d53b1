import { WorkerOptions } from 'bullmq';
import { FulfillmentOptions } from '@punctual/sdk';
import { PunctualConfig, queuePrefixOf } from '@app/config';
import { queueConnection } from '@app/scheduling';
import { bullmqTelemetry } from '@app/observability';
import { WEBHOOK_QUEUE } from '@app/webhooks';

/** A delivery's claim, and its job's lock, outlive the attempt's timeout by this much, for recording its result. */
const WEBHOOK_CLAIM_MARGIN_MS = 2000;

/**
 * What a BullMQ worker consumes: the queue of an action type (with the rate limit its fulfillment
 * declares, which ACTION_RATE_LIMITS overrides), or the webhook queue.
 */
export type ConsumedQueue = { actionType: string; rateLimit: FulfillmentOptions['rateLimit'] } | 'webhooks';

/** How long a delivery attempt's claim lasts. */
export function webhookClaimMs(config: PunctualConfig): number {
  return config.webhooks.timeoutMs + WEBHOOK_CLAIM_MARGIN_MS;
}

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
  if (queue === 'webhooks') {
    const claimMs = webhookClaimMs(config);
    // Delivery jobs are not traced. Set rather than left out: @nestjs/bullmq would give the worker the queue's telemetry.
    return { ...common, concurrency: config.webhooks.concurrency, lockDuration: claimMs, stalledInterval: claimMs, telemetry: undefined };
  }
  const limit = config.worker.rateLimits.get(queue.actionType) ?? queue.rateLimit;
  return {
    ...common,
    concurrency: config.worker.concurrency,
    limiter: limit ? { max: limit.max, duration: limit.durationMs } : undefined,
    lockDuration: config.scheduling.claimLeaseMs,
    stalledInterval: config.scheduling.claimLeaseMs,
    telemetry: bullmqTelemetry(),
  };
}
