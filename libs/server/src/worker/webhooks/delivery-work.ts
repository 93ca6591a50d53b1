import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { PunctualConfig } from '@app/config';
import { ClaimedDelivery, WebhookDeliveriesRepository } from '@app/database';
import { PunctualMetrics } from '@app/observability';
import { DeliveryQueue, WEBHOOK_QUEUE, WebhookJobData } from '@app/webhooks';
import { NotDueYetError } from '../execution/not-due-yet.error';
import { QueueConsumers } from '../execution/queue-consumers';
import type { ConsumedJob } from '../execution/queued-work';
import { RunningAttempts } from '../execution/running-attempts';
import { workerOptions } from '../execution/worker-options';
import { WebhookSender } from './webhook-sender';

type DeliveryOutcome = 'skipped' | 'delivered' | 'retry' | 'failed';

const FAILED_ATTEMPTS: Partial<Record<DeliveryOutcome, string>> = {
  failed: 'Delivery attempt failed and no retry is left: the delivery is FAILED (its lastError says why)',
  retry: 'Delivery attempt failed: it is sent again later, as a new job (its lastError says why)',
};

/**
 * Webhook deliveries, as durable work of their own queue, apart from the action queues so that a
 * slow or dead receiver never delays an action. A receiver (a subscription, or a callback URL) runs
 * at most WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION attempts at once across the workers, so it cannot
 * take every slot from the others; each attempt is bounded by WEBHOOK_TIMEOUT_MS.
 */
@Injectable()
export class DeliveryWork implements OnApplicationBootstrap {
  private readonly logger = new Logger(DeliveryWork.name);

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly queue: DeliveryQueue,
    private readonly sender: WebhookSender,
    private readonly attempts: RunningAttempts,
    private readonly consumers: QueueConsumers,
    private readonly metrics: PunctualMetrics,
    private readonly config: PunctualConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.consumers.serve<WebhookJobData>({
      queue: WEBHOOK_QUEUE,
      options: workerOptions(this.config, 'webhooks'),
      failedAttempts: FAILED_ATTEMPTS,
      slotGroupOf: async (job) => ({ kind: 'receiver', id: job.data.target, limit: this.config.webhooks.concurrencyPerTarget }),
      run: (job) => this.run(job),
    });
  }

  private async run(job: ConsumedJob<WebhookJobData>): Promise<DeliveryOutcome> {
    const { deliveryId, attempts } = job.data;
    const claimed = await this.deliveries.claim(deliveryId, attempts, this.config.scheduling.claimLeaseMs);
    if (claimed === null) return 'skipped'; // stale or duplicate job, or a deleted subscription
    if ('dueInMs' in claimed) throw new NotDueYetError(claimed.dueInMs);
    return this.attempt(claimed);
  }

  /** Sends the claimed attempt under the lease on its claim, as an action's attempt runs, and records how it went under that claim. */
  private async attempt(claimed: ClaimedDelivery): Promise<DeliveryOutcome> {
    const { id, claimToken } = claimed;
    const claim = { name: `delivery ${id} attempt ${claimed.attempts + 1}`, renew: (ms: number) => this.deliveries.renew(id, claimToken, ms) };
    const lease = this.attempts.hold(claim, this.logger);
    try {
      const result = await this.sender.send(claimed, lease.signal);
      this.metrics.webhookAttemptEnded(result.kind === 'delivered' ? 'succeeded' : 'failed');
      // Not recorded when the claim was lost meanwhile: another attempt runs or ran, and the receiver may get a duplicate, which at-least-once allows.
      const { retry } = await this.deliveries.record(id, claimToken, result);
      // Persisted, then queued: a retry whose add fails is the sweep's.
      if (retry) await this.queue.add([retry]).catch((error: Error) => this.logger.warn(`Left the retry of ${id} for the sweep: ${error.message}`));
      if (result.kind === 'delivered') return 'delivered';
      return retry ? 'retry' : 'failed';
    } finally {
      lease.release();
    }
  }
}
