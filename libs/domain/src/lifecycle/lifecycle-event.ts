import type { Frequency, MisfirePolicy } from '../action-vocabulary';
import type { DstPolicy } from '../schedule/dst-policy';
import type { ActionState, HistoryDraft } from './action-state';
import type { CatchUpPolicy } from './catch-up';
import type { ActionRetryPolicy, RetryPolicy } from './retry-policy';
import type { SkippedOccurrences } from './skips';

/** Fields a client may change on a PENDING action outside the lock window; `null` clears `endAt`, `retryPolicy`, `callbackUrl`, `jitterMs` and `calendar`. */
export interface ActionChanges {
  executionTime?: Date;
  data?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  repeat?: boolean;
  frequency?: Frequency;
  cron?: string;
  timezone?: string;
  executionRemainder?: number;
  endAt?: Date | null;
  misfirePolicy?: MisfirePolicy;
  retryPolicy?: ActionRetryPolicy | null;
  callbackUrl?: string | null;
  jitterMs?: number | null;
  /** `null` sets it back to the default. */
  dstPolicy?: DstPolicy | null;
  calendar?: string | null;
}

/** Everything that moves an action along its lifecycle, besides its creation. */
export type LifecycleEvent =
  /**
   * A worker claimed the due occurrence: its next attempt starts. Postgres decides claims in
   * batches (the claim statement), and the store's drift spec checks that statement against this.
   * Of an IN_PROGRESS action it is a takeover (its worker died): nothing changes until the lost
   * attempt is recorded (`interrupted`).
   */
  | { readonly type: 'claimed' }
  /** The running attempt's fulfillment succeeded; `catchUp` paces and caps RUN_ALL when the next time has passed. */
  | { readonly type: 'succeeded'; readonly now: Date; readonly note: string | null; readonly catchUp: CatchUpPolicy }
  /** The running attempt's fulfillment failed; a permanent failure is not retried. */
  | {
      readonly type: 'failed';
      readonly now: Date;
      readonly error: string;
      readonly permanent: boolean;
      readonly retryPolicy: RetryPolicy;
      /**
       * The delay the fulfillment asked for before the next attempt (`RetryLaterError`), in ms, in
       * place of the policy's backoff; the policy still decides whether any attempt is left.
       */
      readonly retryAfterMs?: number;
      readonly random?: () => number;
    }
  /** A worker took over an attempt whose worker died (its claim lapsed): that attempt counts as failed. */
  | { readonly type: 'interrupted'; readonly retryPolicy: RetryPolicy }
  /** No fulfillment module knows the action's type: it becomes NO_ACTION, visibly, and is not retried. */
  | { readonly type: 'typeUnknown'; readonly note: string }
  /** A client changed a PENDING action; `by` is its API key (null: an operator), which signs what it set from now on. */
  | { readonly type: 'patched'; readonly now: Date; readonly changes: ActionChanges; readonly by: string | null }
  /**
   * Its owner asked to stop the action for good. An occurrence the lock window covers (running, or
   * about to) finishes first; anything else ends at once.
   */
  | { readonly type: 'canceled'; readonly now: Date; readonly note: string | null; readonly lockWindowMs: number }
  /** A client asked to run a FAILED or NO_ACTION action again, now, as the same occurrence; a cancel request left from before is dropped. */
  | { readonly type: 'retriedManually'; readonly now: Date }
  /**
   * Its owner paused the action: no attempt of a later occurrence starts until it is resumed. An
   * occurrence the lock window covers (running, or about to) still runs as planned, with its retries.
   */
  | { readonly type: 'paused'; readonly now: Date; readonly note: string | null; readonly lockWindowMs: number }
  /** Its owner resumed a paused action: an occurrence whose time passed meanwhile follows the misfire policy. */
  | { readonly type: 'resumed'; readonly now: Date; readonly catchUp: CatchUpPolicy }
  /**
   * Its owner asked that the next `count` occurrences of a repeating action not run. Those the lock
   * window does not cover are skipped at once; an occurrence it covers runs first, and the skips
   * follow it.
   */
  | { readonly type: 'skipRequested'; readonly now: Date; readonly count: number; readonly lockWindowMs: number }
  /**
   * The current occurrence came due on a date its calendar holds (Postgres finds it at the claim of
   * any of its attempts, so a date added after a failed attempt stops its retries): it does not run,
   * and the schedule moves on as after a run, without consuming an execution.
   */
  | { readonly type: 'calendarDate'; readonly now: Date; readonly catchUp: CatchUpPolicy }
  /**
   * A client deleted the action: it never runs again. A running attempt cannot be deleted (it is
   * canceled instead); storage deletes a PENDING one only outside the lock window (`unlockedGuard`).
   */
  | { readonly type: 'deleted' };

/** The events of an occurrence coming due and running, as a worker or the promoter records them. */
export type RunEvent = Extract<LifecycleEvent, { type: 'claimed' | 'succeeded' | 'failed' | 'interrupted' | 'typeUnknown' | 'calendarDate' }>;

/** What an action's owner asks of it besides a change of its fields. */
export type OwnerControl = Extract<LifecycleEvent, { type: 'canceled' | 'paused' | 'resumed' | 'skipRequested' | 'retriedManually' | 'deleted' }>;

/** One event of the union, by its type. */
export type EventOf<T extends LifecycleEvent['type']> = Extract<LifecycleEvent, { type: T }>;

/** What one event does to an action, before `transition()` adds what every transition carries. */
export interface Outcome {
  changes: Partial<ActionState>;
  /** Null when the event changes nothing: nothing is written. */
  entry: Omit<HistoryDraft, 'from' | 'occurrence'> | null;
  finished?: boolean;
  /** The row goes, with its history: no entry is written. */
  deleted?: boolean;
  skipped?: SkippedOccurrences[];
}
