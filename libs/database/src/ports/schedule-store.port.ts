import type { EntityManager } from 'typeorm';
import type { ActionEntity } from '../entities/action.entity';
import type { QueueableAction } from '../repositories/schedule.repository';

/** The promoter's window: the watermark, the end of the horizon and the store's clock, read together. */
export interface PromotionWindow {
  from: Date;
  until: Date;
  now: Date;
}

/**
 * What the promoter reads and moves of the schedule, each call on `manager`, the transaction holding
 * its lock: `ScheduleRepository` on Postgres in the apps (with the workers' declarations, for the
 * served and known types). The store's clock decides what is due, never the caller's.
 */
export interface ScheduleStorePort {
  /** The watermark and the end of the horizon, `horizonMs` from the store's now. */
  promotionWindow(manager: EntityManager, horizonMs: number): Promise<PromotionWindow>;
  /** One batch of PENDING actions not held by a pause, due in [from, until), in (nextAttemptAt, id) order after `after`. */
  pendingBetween(
    manager: EntityManager,
    window: { from: Date; until: Date },
    limit: number,
    after?: { nextAttemptAt: Date; id: string },
  ): Promise<QueueableAction[]>;
  advanceWatermark(manager: EntityManager, until: Date): Promise<void>;
  /** Forget what was promoted: everything PENDING within the horizon is queued again (Redis lost its data). */
  resetWatermark(manager: EntityManager): Promise<void>;
  /** The actions that end NO_ACTION now (the domain's `endsForUnknownType`), judged over every worker's declaration. */
  dueOfUnknownType(manager: EntityManager, graceMs: number, limit: number): Promise<ActionEntity[]>;
  /**
   * Actions of `types` whose job may have been lost: PENDING overdue by `graceMs` in keyset order
   * after `after`, then IN_PROGRESS with a claim that lapsed more than `graceMs` ago.
   */
  overdue(
    manager: EntityManager,
    types: readonly string[],
    graceMs: number,
    limit: number,
    after?: { nextAttemptAt: Date; id: string },
  ): Promise<QueueableAction[]>;
  /** The types some live worker serves: the ones the promoter may queue again. */
  servedTypes(manager: EntityManager): Promise<string[]>;
}

export const SCHEDULE_STORE = Symbol('SCHEDULE_STORE');
