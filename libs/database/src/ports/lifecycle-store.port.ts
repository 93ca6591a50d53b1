import type { Transition, UnlockedGuard } from '@app/domain';
import type { ActionEntity } from '../entities/action.entity';
import type { NewAction } from '../repositories/action-query.types';

/** What must still hold of the row for a transition computed from `transition.before` to be written. */
export type TransitionGuard =
  /**
   * A change by a client or the promoter: the row is at the revision it was read at and in one of
   * `statuses`; with `dueAfter`, its occurrence is also still due after it (outside the lock window).
   */
  | ({ readonly kind: 'revision' } & UnlockedGuard)
  /** An attempt's outcome: the claim it was computed under still holds, and no cancellation arrived since it was read. */
  | { readonly kind: 'claim' };

/** What a job found when it tried to claim its action. */
export type ClaimResult =
  /**
   * The attempt is ours until `claimedUntil` (renew it while running); `takenOver`: its previous
   * worker died mid-run. `dueAt`: when the attempt was due, or became runnable when that was later,
   * as its history entry records it; its firing lag counts from here.
   */
  | { kind: 'claimed'; action: ActionEntity; takenOver: boolean; dueAt: Date }
  /**
   * Not yet, on the store's clock: the action waits for this very job but is due later, or another
   * attempt holds a live claim on it. Run the job again in `dueInMs`.
   */
  | { kind: 'not-due'; dueInMs: number }
  /** The occurrence came due on a date of its calendar: it is not claimed, and the caller skips it (the lifecycle's `calendarDate`). */
  | { kind: 'calendar-date'; action: ActionEntity }
  /** Nothing to do: the job is stale, the action is gone, finished or running elsewhere. */
  | { kind: 'none' };

/**
 * What the scheduler, the promoter and the worker need of the one writer of actions' lifecycle
 * state: `LifecycleStore` on Postgres in the apps; an implementation held to the same case table
 * (the store's drift spec) may stand in for it where no Postgres runs.
 */
export interface LifecycleStorePort {
  /** Stores one action and its creation history. */
  create(action: NewAction): Promise<ActionEntity>;
  /** Stores actions and their creation history, all or nothing. */
  createMany(actions: NewAction[]): Promise<ActionEntity[]>;
  /**
   * The lifecycle's `claimed` event on the store's clock, for exactly this revision of an action
   * of `type`, under a lease of `leaseMs` and a fresh fencing token; also the takeover of a lapsed claim.
   */
  claim(id: string, revision: number, type: string, leaseMs: number): Promise<ClaimResult>;
  /**
   * Writes `transition` if `guard` still holds: the action as written (as it was, for a deletion),
   * or null when the row moved on first. A transition that changes nothing writes nothing.
   */
  persist(transition: Transition<ActionEntity>, guard: TransitionGuard): Promise<ActionEntity | null>;
}

export const LIFECYCLE_STORE = Symbol('LIFECYCLE_STORE');

/** What a running attempt needs of its claim's lease (`ExecutionRepository` on Postgres). */
export interface ClaimLeasesPort {
  /** Extends a running attempt's lease; false when the claim is no longer this token's (it was taken over). */
  renew(action: ActionEntity, leaseMs: number): Promise<boolean>;
  /** The action as it is now if `token` still holds its claim, else null (a takeover fenced it off). */
  claimed(id: string, token: string): Promise<ActionEntity | null>;
}

export const CLAIM_LEASES = Symbol('CLAIM_LEASES');
