import { Injectable, Logger } from '@nestjs/common';
import { PunctualConfig } from '@app/config';
import { QueueableAction, ScheduleRepository } from '@app/database';
import { ActionQueues } from './action-queues';

const BATCH_SIZE = 1000;
/** Bounds one tick's transaction; a larger backlog continues on the next tick. */
const MAX_BATCHES_PER_TICK = 50;

export interface PromotionReport {
  promoted: number;
  requeued: number;
  redisWasReset: boolean;
}

/**
 * Keeps Redis in step with Postgres. Each tick, on one instance at a time (advisory lock):
 * 1. if Redis lost its data (a marker key vanished), forget the watermark so everything due
 *    within the horizon is queued again, on time;
 * 2. queue the PENDING actions entering the horizon since the last tick (a watermark in
 *    Postgres, advanced only after Redis accepted the jobs);
 * 3. re-queue PENDING actions overdue by more than OVERDUE_GRACE_MS, whose job was lost (the
 *    API died between commit and enqueue, or Redis was down then), and attempts whose worker
 *    died without the queue handing their job to another worker in time.
 * Job ids are deterministic, so queueing an action twice is harmless.
 */
@Injectable()
export class ActionPromoter {
  private readonly logger = new Logger(ActionPromoter.name);

  constructor(
    private readonly schedule: ScheduleRepository,
    private readonly queues: ActionQueues,
    private readonly config: PunctualConfig,
  ) {}

  async tick(): Promise<PromotionReport | null> {
    const report = await this.schedule.whileLeader(async (manager) => {
      const redisWasReset = await this.detectRedisReset();
      if (redisWasReset) await this.schedule.resetWatermark(manager);
      const window = await this.schedule.promotionWindow(manager, this.config.scheduling.horizonMs);
      let promoted = 0;
      let watermark = window.until;
      let after: QueueableAction | undefined;
      for (let batch = 0; batch < MAX_BATCHES_PER_TICK; batch += 1) {
        const rows = await this.schedule.pendingBetween(manager, window, BATCH_SIZE, after);
        await this.queues.add(rows);
        promoted += rows.length;
        if (rows.length < BATCH_SIZE) {
          watermark = window.until;
          break;
        }
        after = rows[rows.length - 1];
        watermark = after.nextAttemptAt;
      }
      await this.schedule.advanceWatermark(manager, watermark);
      const requeued = await this.requeueOverdue();
      return { promoted, requeued, redisWasReset };
    });
    if (report && (report.requeued > 0 || report.redisWasReset)) {
      this.logger.warn(`Redis ${report.redisWasReset ? 'was reset; re-queued everything due within the horizon' : 'missed jobs'}: promoted ${report.promoted}, re-queued ${report.requeued} overdue`);
    }
    return report;
  }

  /** Sets the marker if it is missing; a missing marker means Redis is new or lost its data. */
  private async detectRedisReset(): Promise<boolean> {
    const redis = await this.queues.redis();
    return (await redis.set(`${this.config.redis.queuePrefix}:promoter-marker`, String(Date.now()), 'NX')) === 'OK';
  }

  private async requeueOverdue(): Promise<number> {
    let requeued = 0;
    for (const action of await this.schedule.overdue(this.config.scheduling.overdueGraceMs, 2 * this.config.scheduling.claimLeaseMs, BATCH_SIZE)) {
      if (await this.queues.ensureQueued(action)) requeued += 1;
    }
    return requeued;
  }
}
