import type { ActionNotice } from './lifecycle-notice';
import type { LifecycleEvent } from './lifecycle-event';
import { ActionStatus, Frequency, MisfirePolicy } from '../action-vocabulary';
import type { DstPolicy } from '../schedule/dst-policy';
import { ActionRetryPolicy } from './retry-policy';
import type { SkipNotice, SkippedOccurrences } from './skips';

/** The fields of an action that its lifecycle reads and writes. */
export interface ActionState {
  readonly status: ActionStatus;
  /** 1-based number of the current occurrence; `<id>:<occurrence>` is its idempotency key. */
  readonly occurrence: number;
  /** Failed attempts of the current occurrence. */
  readonly retryCount: number;
  readonly lastError: string | null;
  /** Scheduled time of the current occurrence; recurrence steps from it, never from the run time. */
  readonly executionTime: Date;
  /** When the next attempt is due: `executionTime`, or later while backing off. */
  readonly nextAttemptAt: Date;
  /**
   * When the next attempt became runnable: the action's creation, or the last change that gave it
   * a new due time (patch, resume, retry, skip, the next occurrence). An attempt's firing lag counts
   * from the later of this and `nextAttemptAt`, so a due time already past when set is not lateness.
   */
  readonly runnableSince: Date;
  /** The executionTime the client last set; MONTHLY steps count calendar months from it. */
  readonly scheduleAnchor: Date;
  readonly repeat: boolean;
  readonly frequency: Frequency | null;
  /** Instead of `frequency`: a cron expression read in `timezone`. */
  readonly cron: string | null;
  /** IANA zone of a repeating action's calendar (`UTC` unless given); null for a one-off action. */
  readonly timezone: string | null;
  /** Executions still to run, this one included; null for a cron schedule without a limit. */
  readonly executionRemainder: number | null;
  /** No occurrence runs after this time. */
  readonly endAt: Date | null;
  readonly misfirePolicy: MisfirePolicy;
  /** The action's own retry policy; it wins over the type's and the global one. */
  readonly retryPolicy: ActionRetryPolicy | null;
  readonly data: Record<string, unknown>;
  readonly metadata: Record<string, unknown>;
  /** Receives this action's lifecycle webhooks, signed with the secret of `callbackKeyId`. */
  readonly callbackUrl: string | null;
  /** The API key that last set `data`: its secret signs the action's outbound calls. */
  readonly dataKeyId: string | null;
  /** The API key that last set `callbackUrl`: its secret signs the events sent there. */
  readonly callbackKeyId: string | null;
  /**
   * When its owner asked to cancel an action whose current occurrence was running or locked: that
   * occurrence finishes, then the action is CANCELED. Null when no cancellation is pending.
   */
  readonly cancelRequestedAt: Date | null;
  /**
   * While the action is paused: the first occurrence that does not start until it is resumed (the
   * current one, or the next when the lock window covers the current one). Null when not paused.
   */
  readonly pausedFrom: number | null;
  /** How a wall-clock schedule meets daylight-saving changes; null for a one-off action. */
  readonly dstPolicy: DstPolicy | null;
  /**
   * The calendar whose dates a repeating action's schedule skips, checked when each occurrence
   * comes due (so a change of the calendar applies to every occurrence still to come); null: none.
   */
  readonly calendar: string | null;
  /** Each occurrence runs up to this long after its scheduled time (see `jitterOf`); null: at its time. */
  readonly jitterMs: number | null;
  /** Fixes each occurrence's jitter: set once, at creation. */
  readonly jitterSeed: number;
  /** Occurrences its owner asked to skip after the one the lock window covered when asked; none run, none count as executions. */
  readonly skipPending: number;
  /** Bumped with every new due time, so a job queued for an older one can never claim the action. */
  readonly revision: number;
}

/** Whether the action's current occurrence waits for a resume: PENDING at or after the occurrence its pause holds. */
export function heldByPause(state: Pick<ActionState, 'status' | 'occurrence' | 'pausedFrom'>): boolean {
  return state.pausedFrom !== null && state.status === ActionStatus.Pending && state.occurrence >= state.pausedFrom;
}

/** One line of an action's history, as the lifecycle writes it. */
export interface HistoryDraft {
  readonly from: ActionStatus | null;
  readonly to: ActionStatus;
  readonly occurrence: number;
  /** Attempt within the occurrence (1 = first try); 0 for entries that are not attempts. */
  readonly attempt: number;
  readonly note: string | null;
}

/** The result of one lifecycle event: the state after it, what to append to the history, and what to tell the client. */
export interface Transition<S extends ActionState = ActionState> {
  readonly before: S;
  readonly after: S;
  /** The event applied: its history entries, the skipped occurrences' too, record its name. */
  readonly event: LifecycleEvent['type'];
  /** Empty when the event changes nothing (a repeated cancel request). */
  readonly history: readonly HistoryDraft[];
  /** The action reached a final status now (retention counts from here). */
  readonly finished: boolean;
  /** The action is gone: storage deletes its row, and its history with it, instead of writing `after`. */
  readonly deleted: boolean;
  /** Occurrences that will not run, each written with its own history entry before the transition's entry. */
  readonly skipped: readonly SkippedOccurrences[];
  /** What the client is told of them: one `action.occurrence_skipped` event per reason, whatever their number. */
  readonly skipNotices: readonly SkipNotice[];
  /** Written with the change, in the same statement, for webhook delivery; null when there is nothing to tell. */
  readonly notice: ActionNotice | null;
}

/** The attempt a claim starts: the failed attempts of the occurrence so far, plus this one. */
export function attemptNumber(state: Pick<ActionState, 'retryCount'>): number {
  return state.retryCount + 1;
}

/** The idempotency key of the current occurrence, the same for every attempt of it. */
export function idempotencyKeyOf(action: { id: string; occurrence: number }): string {
  return `${action.id}:${action.occurrence}`;
}
