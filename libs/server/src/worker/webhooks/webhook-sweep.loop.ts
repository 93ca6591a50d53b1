import { Injectable } from '@nestjs/common';
import { PunctualConfig } from '@app/config';
import { WebhookDeliveriesRepository } from '@app/database';
import { PeriodicTask } from '@app/runtime';
import { DeliveryQueue } from '@app/webhooks';

const BATCH_SIZE = 1000;

/**
 * Queues again the deliveries whose job never reached Redis or was lost there: pending and overdue
 * by OVERDUE_GRACE_MS, and not queued within that grace (their process died between the commit and
 * the add, Redis refused the add, or Redis lost its data since). Every delivery is queued right
 * after its commit by `DeliveryQueue`; this is the reconciliation from Postgres, as the promoter's
 * overdue sweep is for actions, every PROMOTE_INTERVAL_MS in every worker (rows another worker is
 * marking are skipped).
 */
@Injectable()
export class WebhookSweepLoop extends PeriodicTask {
  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly queue: DeliveryQueue,
    private readonly config: PunctualConfig,
  ) {
    super({ name: 'Webhook sweep', intervalMs: config.scheduling.promoteIntervalMs });
  }

  /** Queues what is overdue, in batches until a batch comes back short. Returns how many it queued. */
  protected async run(): Promise<number> {
    let total = 0;
    for (;;) {
      const batch = await this.deliveries.markOverdueQueued(this.config.scheduling.overdueGraceMs, BATCH_SIZE);
      await this.queue.add(batch);
      total += batch.length;
      if (batch.length < BATCH_SIZE) return total;
    }
  }
}
