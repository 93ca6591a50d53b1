import { BeforeApplicationShutdown, FactoryProvider, Logger, OnModuleDestroy } from '@nestjs/common';
import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { DelayedError, Job, Worker } from 'bullmq';
import { PunctualConfig } from '@app/config';
import { WebhookDeliveriesRepository } from '@app/database';
import { PunctualMetrics } from '@app/observability';
import { DeliveryQueue, WEBHOOK_QUEUE, WebhookJobData } from '@app/webhooks';
import { ClosingWorkers } from '../execution/closing-workers';
import { ClaimLease } from '../execution/claim-lease';
import { workerOptions } from '../execution/worker-options';
import { TargetSlots } from './target-slots';
import { WebhookSender } from './webhook-sender';

/**
 * Runs delivery attempts from the webhook queue, apart from the action queues so that a slow or
 * dead receiver never delays an action. A receiver (a subscription, or a callback URL) gets at most
 * WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION attempts at once per worker, so it cannot take every slot
 * from the other receivers; each attempt is bounded by WEBHOOK_TIMEOUT_MS. @nestjs/bullmq creates
 * its worker (see webhookConsumerProvider).
 */
export class WebhookConsumer extends WorkerHost<Worker<WebhookJobData>> implements OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger(WebhookConsumer.name);
  private readonly slots: TargetSlots;
  private closing?: ClosingWorkers;

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly queue: DeliveryQueue,
    private readonly sender: WebhookSender,
    private readonly metrics: PunctualMetrics,
    private readonly config: PunctualConfig,
  ) {
    super();
    this.slots = new TargetSlots(config.webhooks.concurrencyPerTarget);
  }

  @OnWorkerEvent('error')
  onError(error: Error): void {
    this.logger.error(`Queue ${WEBHOOK_QUEUE}: ${error.message}`);
  }

  // A receiver's failure is a recorded attempt, not a job failure: this is Postgres or Redis failing, retried by the queue.
  @OnWorkerEvent('failed')
  onFailed(job: Job | undefined, error: Error): void {
    this.logger.warn(`Delivery job ${job?.id ?? '?'} failed, to be retried: ${error.message}`);
  }

  /**
   * Like the action consumers: takes no new deliveries from the first moment of shutdown. Paused
   * rather than closed: @nestjs/bullmq closes the worker at application shutdown and waits for
   * that close, and a close that waits for running jobs cannot be cut short.
   */
  onModuleDestroy(): void {
    this.closing = new ClosingWorkers([this.worker], (worker) => worker.pause());
  }

  /** Running deliveries may finish within SHUTDOWN_TIMEOUT_MS; then the process exits without them. */
  async beforeApplicationShutdown(): Promise<void> {
    const timeoutMs = this.config.worker.shutdownTimeoutMs;
    const finished = await this.closing!.closedBy(timeoutMs);
    // Forced, so that it leaves behind the deliveries still running rather than waiting for them.
    await this.worker.close(true);
    if (finished) return;
    this.logger.warn(
      `Exiting with deliveries still running after SHUTDOWN_TIMEOUT_MS (${timeoutMs} ms): each is sent again, with the same webhook-id, once its claim lapses`,
    );
  }

  async process(job: Job<WebhookJobData>, token?: string): Promise<void> {
    const { deliveryId, attempts, target } = job.data;
    const slot = this.slots.take(target, Date.now());
    if ('waitMs' in slot) return this.delay(job, token, slot.waitMs);
    try {
      const leaseMs = this.config.scheduling.claimLeaseMs;
      const claimed = await this.deliveries.claim(deliveryId, attempts, leaseMs);
      if (claimed === null) return; // stale or duplicate job, or a deleted subscription
      if ('dueInMs' in claimed) return await this.delay(job, token, claimed.dueInMs);
      // Held as an action's attempt is: renewed while it runs, and stopped once the claim is lost.
      const renewable = {
        name: `delivery ${deliveryId} attempt ${attempts + 1}`,
        renew: (ms: number) => this.deliveries.renew(deliveryId, claimed.claimToken, ms),
      };
      const lease = new ClaimLease(renewable, leaseMs, this.logger, () => undefined);
      try {
        const result = await this.sender.send(claimed, lease.signal);
        this.metrics.webhookAttemptEnded(result.kind === 'delivered' ? 'succeeded' : 'failed');
        // Not recorded when the claim was lost meanwhile: another attempt runs or ran, and the receiver may get a duplicate, which at-least-once allows.
        const { retry } = await this.deliveries.record(deliveryId, claimed.claimToken, result);
        // Persisted, then queued: a retry whose add fails is the sweep's.
        if (retry)
          await this.queue.add([retry]).catch((error: Error) => this.logger.warn(`Left the retry of ${deliveryId} for the sweep: ${error.message}`));
      } finally {
        lease.release();
      }
    } finally {
      slot.release(Date.now());
    }
  }

  private async delay(job: Job<WebhookJobData>, token: string | undefined, ms: number): Promise<never> {
    await job.moveToDelayed(Date.now() + ms, token);
    throw new DelayedError();
  }
}

/**
 * The consumer, as the webhook queue's processor. @Processor's worker options are class metadata
 * and these come from the configuration, so the class is declared a processor once it is loaded.
 */
export const webhookConsumerProvider: FactoryProvider<WebhookConsumer> = {
  provide: WebhookConsumer,
  inject: [WebhookDeliveriesRepository, DeliveryQueue, WebhookSender, PunctualMetrics, PunctualConfig],
  useFactory: (deliveries: WebhookDeliveriesRepository, queue: DeliveryQueue, sender: WebhookSender, metrics: PunctualMetrics, config: PunctualConfig) => {
    @Processor(WEBHOOK_QUEUE, workerOptions(config, 'webhooks'))
    class ConfiguredWebhookConsumer extends WebhookConsumer {}
    return new ConfiguredWebhookConsumer(deliveries, queue, sender, metrics, config);
  },
};
