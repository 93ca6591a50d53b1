import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import { Queue } from 'bullmq';
import { LifecycleStore, QueueableDelivery, WebhookDeliveriesRepository } from '@app/database';
import { DEFAULT_MAX_BATCH, GroupCommit } from '@app/runtime';
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
  /**
   * The deliveries of the events of commits that end while one batch is on its way go out together:
   * under load one mark and one add serve many commits, as the outcomes themselves share statements.
   * A failed batch is not retried commit by commit: the sweep queues what it left.
   */
  private readonly committedEvents = new GroupCommit<readonly string[], void>(
    async (commits) => {
      await this.add(await this.deliveries.markQueued('event_id', commits.flat()));
      return commits.map(() => undefined);
    },
    DEFAULT_MAX_BATCH,
    () => false,
  );

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    @InjectQueue(WEBHOOK_QUEUE) private readonly queue: Queue<WebhookJobData>,
    private readonly store: LifecycleStore,
  ) {}

  onModuleInit(): void {
    this.store.relayCommittedEvents((eventIds) => void this.committedEvents.submit(eventIds).catch((error: Error) => this.leftForSweep(error)));
  }

  /** Queues the waiting deliveries of these deliveries (a test event's, a redelivered one). Never throws: the sweep queues what it could not. */
  async queueDeliveries(ids: readonly string[]): Promise<void> {
    try {
      await this.add(await this.deliveries.markQueued('id', ids));
    } catch (error) {
      this.leftForSweep(error as Error);
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

  private leftForSweep(error: Error): void {
    this.logger.warn(`Left deliveries for the overdue sweep: ${error.message}`);
  }
}
