import { Injectable } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import { Queue } from 'bullmq';
import { PunctualConfig } from '@app/config';
import { WebhookDeliveriesRepository } from '@app/database';
import { PeriodicTask } from '@app/runtime';
import { Clock } from '@app/domain';
import { WEBHOOK_QUEUE, WebhookJobData, webhookJobIdFor } from '@app/webhooks';

/** Often enough that a delivery leaves soon after its change committed; one indexed query when idle. */
export const WEBHOOK_PUMP_INTERVAL_MS = 200;
const BATCH_SIZE = 1000;

/**
 * Moves deliveries from the Postgres outbox to the webhook queue: new ones, retries once their
 * attempt is recorded, and queued ones whose job Redis lost (overdue by OVERDUE_GRACE_MS). The
 * row is marked first and the job added after: when Redis refuses, the mark is taken off again;
 * a crash in between leaves a row that a run after the grace queues again; a job added twice
 * shares its id and runs once.
 */
@Injectable()
export class WebhookPumpLoop extends PeriodicTask {
  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    @InjectQueue(WEBHOOK_QUEUE) private readonly queue: Queue<WebhookJobData>,
    private readonly clock: Clock,
    private readonly config: PunctualConfig,
  ) {
    super({ name: 'Webhook pump', intervalMs: WEBHOOK_PUMP_INTERVAL_MS });
  }

  /** Queues what is waiting, in batches until a batch comes back short. Returns how many it queued. */
  protected async run(): Promise<number> {
    let total = 0;
    for (;;) {
      const batch = await this.deliveries.markQueueable(this.config.scheduling.overdueGraceMs, BATCH_SIZE);
      const now = this.clock.now().getTime();
      try {
        await this.queue.addBulk(
          batch.map((delivery) => ({
            name: 'deliver',
            data: { deliveryId: delivery.id, attempts: delivery.attempts, target: delivery.target },
            opts: { jobId: webhookJobIdFor(delivery), delay: Math.max(0, delivery.nextAttemptAt.getTime() - now) },
          })),
        );
      } catch (error) {
        await this.deliveries.unmarkQueued(batch.map((delivery) => delivery.id));
        throw error;
      }
      total += batch.length;
      if (batch.length < BATCH_SIZE) return total;
    }
  }
}
