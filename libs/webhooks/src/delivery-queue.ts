import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import { Queue } from 'bullmq';
import { LifecycleStore, QueueableDelivery, WebhookDeliveriesRepository } from '@app/database';
import { WEBHOOK_QUEUE, WebhookJobData, webhookJobIdFor } from './webhook-job';

/**
 * Puts deliveries on the webhook queue right after the commit that made them due, as actions are:
 * the deliveries of the events a lifecycle write committed, a test event's, a redelivered one's,
 * and a failed attempt's retry. The row is marked queued first and the job added after: when Redis
 * refuses, the mark comes off again; when the process dies in between, or Redis loses the job
 * later, the overdue sweep (`WebhookSweepLoop`) queues the delivery once it is OVERDUE_GRACE_MS late.
 * A job added twice shares its id and runs once.
 */
@Injectable()
export class DeliveryQueue implements OnModuleInit {
  private readonly logger = new Logger(DeliveryQueue.name);

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    @InjectQueue(WEBHOOK_QUEUE) private readonly queue: Queue<WebhookJobData>,
    private readonly store: LifecycleStore,
  ) {}

  onModuleInit(): void {
    this.store.relayCommittedEvents((eventIds) => void this.queueMarked('event_id', eventIds));
  }

  /**
   * Queues the waiting deliveries of these events (`event_id`) or these deliveries (`id`). Never
   * throws: what it could not queue, the sweep queues later.
   */
  async queueMarked(by: 'event_id' | 'id', ids: readonly string[]): Promise<void> {
    try {
      await this.add(await this.deliveries.markQueued(by, ids));
    } catch (error) {
      this.logger.warn(`Left ${ids.length} deliveries for the overdue sweep: ${(error as Error).message}`);
    }
  }

  /** Adds the jobs of deliveries marked queued; when Redis refuses, takes the marks off and throws. */
  async add(batch: readonly QueueableDelivery[]): Promise<void> {
    if (batch.length === 0) return;
    const now = Date.now();
    try {
      await this.queue.addBulk(
        batch.map((delivery) => ({
          name: 'deliver',
          data: { deliveryId: delivery.id, attempts: delivery.attempts, target: delivery.target },
          opts: { jobId: webhookJobIdFor(delivery), delay: Math.max(0, new Date(delivery.nextAttemptAt).getTime() - now) },
        })),
      );
    } catch (error) {
      await this.deliveries.unmarkQueued(batch.map((delivery) => delivery.id));
      throw error;
    }
  }
}
