import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { PunctualConfig } from '@app/config';
import { EntityManager } from 'typeorm';
import { ActionEntity, LIFECYCLE_STORE, LifecycleStorePort, QueueableAction, SCHEDULE_STORE, ScheduleStorePort } from '@app/database';
import { ActionStatus, transition } from '@app/domain';
import { PunctualMetrics } from '@app/observability';
import { ACTION_QUEUES, ActionQueuesPort } from './action-queues.port';

/** How much one tick reads. */
export interface PromotionBatches {
  /** Rows per read: one batch of promotion, the unknown-type ends and each overdue sweep. */
  size: number;
  /** Promotion batches per tick, which bounds its transaction; a larger backlog continues on the next tick. */
  perTick: number;
}

/** Smaller batches, for specs that walk a backlog across batches and ticks; the apps provide none. */
export const PROMOTION_BATCHES = Symbol('PROMOTION_BATCHES');

const BATCHES: PromotionBatches = { size: 1000, perTick: 50 };

export interface PromotionReport {
  promoted: number;
  requeued: number;
  noAction: number;
  redisWasReset: boolean;
}

/** What a tick's leader transaction found, for the part of the tick after its commit. */
export interface PromotionLead {
  promoted: number;
  redisWasReset: boolean;
  /** Due PENDING actions, and attempts whose worker died, of a type no live worker has known for UNKNOWN_TYPE_GRACE_MS. */
  unknown: ActionEntity[];
  /** Actions whose job may have been lost. */
  overdue: QueueableAction[];
}

/**
 * Keeps Redis in step with Postgres. Each tick, on one instance at a time (the promoter lock, ScheduleRepository.lock):
 * 1. if Redis lost its data (a marker key vanished), forget the watermark so everything due
 *    within the horizon is queued again, on time;
 * 2. queue the PENDING actions entering the horizon since the last tick (a watermark in
 *    Postgres, advanced only after Redis accepted the jobs);
 * 3. end as NO_ACTION the due actions, not held by a pause, that have been due for
 *    UNKNOWN_TYPE_GRACE_MS during which no live worker knew their type (the workers' declarations,
 *    WorkersRepository, not this process's registry: a rolling deploy adds types one worker at a time);
 * 4. re-queue actions whose job was lost (the API died between commit and enqueue, Redis was down
 *    then, or a worker died mid-attempt): PENDING overdue by OVERDUE_GRACE_MS, or IN_PROGRESS with a
 *    lapsed claim. Only types some live worker serves are looked at, known to this process or not
 *    (the others wait for theirs), and
 *    successive ticks walk the whole overdue set, so no number of rows that cannot run hides one that
 *    can. The queue checks run after the leader's transaction, pipelined.
 * Job ids are deterministic, so queueing an action twice is harmless.
 */
@Injectable()
export class ActionPromoter {
  private readonly logger = new Logger(ActionPromoter.name);
  /** Where the last overdue sweep stopped; the next one continues after it, then starts over. */
  private sweptUntil?: QueueableAction;

  constructor(
    @Inject(SCHEDULE_STORE) private readonly schedule: ScheduleStorePort,
    @Inject(LIFECYCLE_STORE) private readonly store: LifecycleStorePort,
    @Inject(ACTION_QUEUES) private readonly queues: ActionQueuesPort,
    private readonly config: PunctualConfig,
    private readonly metrics: PunctualMetrics,
    @Optional() @Inject(PROMOTION_BATCHES) private readonly batches: PromotionBatches = BATCHES,
  ) {}

  /** A tick's Postgres part, on `manager`: a transaction holding the promoter lock. */
  async lead(manager: EntityManager): Promise<PromotionLead> {
    const { overdueGraceMs, unknownTypeGraceMs } = this.config.scheduling;
    const served = await this.schedule.servedTypes(manager);
    const redisWasReset = await this.queues.markersWereMissing();
    if (redisWasReset) await this.schedule.resetWatermark(manager);
    const promoted = await this.promote(manager);
    const unknown = await this.schedule.dueOfUnknownType(manager, unknownTypeGraceMs, this.batches.size);
    const overdue = await this.schedule.overdue(manager, served, overdueGraceMs, this.batches.size, this.sweptUntil);
    return { promoted, unknown, overdue, redisWasReset };
  }

  /** The rest of the tick, once the leader's transaction committed: the NO_ACTION writes and the queue checks. */
  async settle(found: PromotionLead): Promise<PromotionReport> {
    // Written together (one statement), each only if its row is still as read (PENDING, or IN_PROGRESS with its lapsed claim).
    const ended = await Promise.all(
      found.unknown.map((action) =>
        this.store.persist(transition(action, { type: 'typeUnknown', note: `No live worker knew action type ${action.action} while it was due` }), {
          kind: 'revision',
          statuses: [action.status],
        }),
      ),
    );
    const noAction = ended.filter((action) => action !== null).length;
    for (const action of ended) if (action) this.metrics.attemptEnded(action, 'no_action');
    const requeued = await this.queues.ensureQueued(found.overdue);
    const pending = found.overdue.filter((a) => a.status === ActionStatus.Pending);
    this.sweptUntil = pending.length === this.batches.size ? pending[pending.length - 1] : undefined;
    const report = { promoted: found.promoted, requeued, noAction, redisWasReset: found.redisWasReset };
    this.logReport(report);
    return report;
  }

  /**
   * Missing markers with nothing to queue again is what a first start on an empty Redis looks like,
   * not a loss: that is worth an info line, a warning only when jobs really had to be queued again.
   */
  private logReport(report: PromotionReport): void {
    const counts = `promoted ${report.promoted}, re-queued ${report.requeued} overdue, ${report.noAction} of unknown types ended NO_ACTION`;
    if (report.redisWasReset && report.promoted === 0 && report.requeued === 0 && report.noAction === 0) {
      this.logger.log('Redis holds no queue markers yet (a first start, or an empty Redis): marked it, nothing to re-queue');
    } else if (report.redisWasReset) {
      this.logger.warn(`Redis was reset; re-queued everything due within the horizon: ${counts}`);
    } else if (report.requeued > 0 || report.noAction > 0) {
      this.logger.warn(`Redis missed jobs: ${counts}`);
    }
  }

  /** Queues what enters the horizon, in batches, and advances the watermark as far as Redis took it. */
  private async promote(manager: EntityManager): Promise<number> {
    const window = await this.schedule.promotionWindow(manager, this.config.scheduling.horizonMs);
    let promoted = 0;
    let watermark = window.until;
    let after: QueueableAction | undefined;
    for (let batch = 0; batch < this.batches.perTick; batch += 1) {
      const rows = await this.schedule.pendingBetween(manager, window, this.batches.size, after);
      await this.queues.add(rows);
      promoted += rows.length;
      if (rows.length < this.batches.size) {
        watermark = window.until;
        break;
      }
      after = rows[rows.length - 1];
      watermark = after.nextAttemptAt;
    }
    await this.schedule.advanceWatermark(manager, watermark);
    return promoted;
  }
}
