import { ActionStatus, Frequency, MisfirePolicy, TERMINAL_STATUSES } from '../action-vocabulary';
import { nextRetryDelay } from '../next-retry-delay';
import { Schedule, firstOccurrenceAfter, latestOccurrenceNotAfter, nextOccurrence } from '../schedule/schedule';
import { ActionState, HistoryDraft, Transition, attemptNumber, heldByPause } from './action-state';
import { TransitionRefusedError } from './lifecycle.errors';
import { noticeOf } from './lifecycle-notice';
import { coversItsOccurrence } from './lock-window';
import { storableNote } from './note';
import { DEFAULT_DST_POLICY, DstPolicy } from '../schedule/dst-policy';
import { jittered } from './jitter';
import { ActionRetryPolicy, RetryPolicy } from './retry-policy';
import { SkippedOccurrences, skipNoticesOf, skipOccurrences, skippedBefore, skippedByClockChange } from './skips';
import { CatchUpPolicy, firstCaughtUp, nextCatchUpAt } from './catch-up';
import { assertRunnableSchedule, firstCronOccurrence, scheduleOf } from './schedule-rules';

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

/**
 * The action lifecycle, as one pure function: the state after `event`, and the history entries
 * it writes. Storage persists the result with a statement conditional on the state it started
 * from; apps never compute a status, a counter or a due time themselves.
 *
 *   PENDING ─claimed→ IN_PROGRESS ─succeeded→ COMPLETED, or PENDING (next occurrence)
 *                               ─failed→ PENDING (retry after backoff, or after the delay asked for), or FAILED
 *                               ─interrupted→ IN_PROGRESS (next attempt), or FAILED
 *   PENDING | IN_PROGRESS ─typeUnknown→ NO_ACTION
 *   PENDING ─patched→ PENDING;  FAILED | NO_ACTION ─retriedManually→ PENDING
 *   PENDING | IN_PROGRESS ─canceled→ CANCELED, or the same status with cancelRequestedAt set, and
 *   then the covered attempt's end (succeeded, failed, interrupted) → CANCELED
 *   any status but IN_PROGRESS ─deleted→ (no action)
 *   PENDING ─calendarDate→ PENDING (the next occurrence), or COMPLETED, or CANCELED when asked
 *   PENDING | IN_PROGRESS ─paused→ the same status, pausedFrom set ─resumed→ the same status (or, when the
 *   held occurrence's time passed, due now or moved on by the misfire policy; COMPLETED when none is left)
 */
export function transition<S extends ActionState>(state: S, event: LifecycleEvent): Transition<S> {
  const result = apply(state, event);
  const after = { ...state, ...result.changes };
  const deleted = result.deleted ?? false;
  if (!result.entry) return { before: state, after, event: event.type, history: [], finished: false, deleted, skipped: [], skipNotices: [], notice: null };
  const entry: HistoryDraft = { from: state.status, occurrence: state.occurrence, ...result.entry };
  const skipped = result.skipped ?? [];
  return {
    before: state,
    after,
    event: event.type,
    history: [entry],
    finished: result.finished ?? false,
    deleted,
    skipped,
    skipNotices: skipNoticesOf(skipped),
    notice: noticeOf(state, after, event, entry),
  };
}

interface Outcome {
  changes: Partial<ActionState>;
  /** Null when the event changes nothing: nothing is written. */
  entry: Omit<HistoryDraft, 'from' | 'occurrence'> | null;
  finished?: boolean;
  /** The row goes, with its history: no entry is written. */
  deleted?: boolean;
  skipped?: SkippedOccurrences[];
}

function apply(state: ActionState, event: LifecycleEvent): Outcome {
  switch (event.type) {
    case 'claimed':
      return (
        requireStatus(state, event.type, [ActionStatus.Pending, ActionStatus.InProgress]) ??
        (state.status === ActionStatus.InProgress
          ? { changes: {}, entry: null }
          : { changes: { status: ActionStatus.InProgress }, entry: { to: ActionStatus.InProgress, attempt: attemptNumber(state), note: null } })
      );
    case 'succeeded':
      return requireStatus(state, event.type, [ActionStatus.InProgress]) ?? endsCanceledIfAsked(state, succeeded(state, event));
    case 'failed':
      return requireStatus(state, event.type, [ActionStatus.InProgress]) ?? endsCanceledIfAsked(state, failed(state, event));
    case 'interrupted':
      return requireStatus(state, event.type, [ActionStatus.InProgress]) ?? endsCanceledIfAsked(state, interrupted(state, event.retryPolicy));
    case 'typeUnknown':
      return (
        requireStatus(state, event.type, [ActionStatus.Pending, ActionStatus.InProgress]) ?? {
          changes: { status: ActionStatus.NoAction, lastError: storableNote(event.note) },
          entry: {
            to: ActionStatus.NoAction,
            attempt: state.status === ActionStatus.InProgress ? attemptNumber(state) : 0,
            note: storableNote(event.note),
          },
          finished: true,
        }
      );
    case 'patched':
      return requireStatus(state, event.type, [ActionStatus.Pending]) ?? patched(state, event);
    case 'canceled':
      return canceled(state, event);
    case 'retriedManually':
      if (state.status !== ActionStatus.Failed && state.status !== ActionStatus.NoAction) {
        throw new TransitionRefusedError(`Action is ${state.status}; only FAILED or NO_ACTION actions can be retried`);
      }
      // A NO_ACTION ends with a cancel request unhonoured: the retry is asked for after it, so it overrides it.
      return {
        changes: { status: ActionStatus.Pending, retryCount: 0, cancelRequestedAt: null, ...dueAgainAt(state, event.now, event.now) },
        entry: { to: ActionStatus.Pending, attempt: 0, note: 'manual retry' },
      };
    case 'paused':
      return refuseFinished(state, 'paused') ?? paused(state, event);
    case 'resumed':
      return refuseFinished(state, 'resumed') ?? resumed(state, event.now, event.catchUp);
    case 'skipRequested':
      return refuseFinished(state, 'skipped') ?? skipRequested(state, event);
    case 'calendarDate':
      return requireStatus(state, event.type, [ActionStatus.Pending]) ?? onCalendarDate(state, event.now, event.catchUp);
    case 'deleted':
      if (state.status === ActionStatus.InProgress) {
        throw new TransitionRefusedError('Action is IN_PROGRESS (running now) and cannot be deleted; cancel it instead');
      }
      return { changes: {}, entry: null, deleted: true };
  }
}

/**
 * A new due time always bumps the revision, so a job queued for the old one can never claim the
 * action. The occurrence is runnable again from `now`: a due time already past then is not lateness.
 */
function dueAgainAt(state: ActionState, nextAttemptAt: Date, now: Date): Pick<ActionState, 'nextAttemptAt' | 'runnableSince' | 'revision'> {
  return { nextAttemptAt, runnableSince: now, revision: state.revision + 1 };
}

function requireStatus(state: ActionState, event: LifecycleEvent['type'], allowed: ActionStatus[]): undefined {
  if (!allowed.includes(state.status)) throw new TransitionRefusedError(`Action is ${state.status}; "${event}" applies only to ${allowed.join(' or ')}`);
  return undefined;
}

function refuseFinished(state: ActionState, verb: string): undefined {
  if (TERMINAL_STATUSES.includes(state.status)) throw new TransitionRefusedError(`Action is ${state.status}; a finished action cannot be ${verb}`);
  return undefined;
}

/** Holds the current occurrence, or the next when the lock window covers the current one. Pausing again changes nothing. */
function paused(state: ActionState, event: Extract<LifecycleEvent, { type: 'paused' }>): Outcome {
  if (state.pausedFrom !== null) return { changes: {}, entry: null };
  const covered = coversItsOccurrence(state, event.now, event.lockWindowMs);
  const reason = event.note === null ? '' : `: ${event.note}`;
  return {
    changes: { pausedFrom: covered ? state.occurrence + 1 : state.occurrence },
    entry: {
      to: state.status,
      attempt: 0,
      note: storableNote(covered ? `paused${reason}; occurrence ${state.occurrence} finishes first` : `paused${reason}`),
    },
  };
}

/**
 * Lets the held occurrence run: at its time, or, when that passed while the action was paused,
 * now (a one-off action; RUN_ALL, from the earliest of the latest missed times it catches up on),
 * at the latest missed time (RUN_ONCE, now), or at the first time after now (SKIP). A new due time
 * bumps the revision, so the occurrence is queued again. Resuming an action that is not paused
 * changes nothing.
 */
function resumed(state: ActionState, now: Date, catchUp: CatchUpPolicy): Outcome {
  if (state.pausedFrom === null) return { changes: {}, entry: null };
  if (!heldByPause(state)) return { changes: { pausedFrom: null }, entry: { to: state.status, attempt: 0, note: 'resumed' } };
  if (state.nextAttemptAt > now) {
    return {
      changes: { pausedFrom: null, ...dueAgainAt(state, state.nextAttemptAt, now) },
      entry: { to: ActionStatus.Pending, attempt: 0, note: 'resumed' },
    };
  }
  const schedule = scheduleOf(state);
  if (!schedule) {
    const note = `resumed; occurrence ${state.occurrence} runs now`;
    return { changes: { pausedFrom: null, ...dueAgainAt(state, now, now) }, entry: { to: ActionStatus.Pending, attempt: 0, note } };
  }
  // The held occurrence never ran: it is the first of the missed ones. A RUN_ALL catch-up runs the first of them now, without pace.
  const missed = misfired(state, schedule, state.executionTime, now, catchUp);
  if (!missed.time || (state.endAt && missed.time > state.endAt)) {
    const note = storableNote(`resumed; ${missed.note}; no occurrence left before endAt`);
    return {
      changes: { pausedFrom: null, status: ActionStatus.Completed },
      entry: { to: ActionStatus.Completed, attempt: 0, note },
      finished: true,
      skipped: withinEnd(missed.skipped, state.endAt),
    };
  }
  const runsNow = state.misfirePolicy !== MisfirePolicy.Skip;
  return {
    changes: { pausedFrom: null, executionTime: missed.time, ...dueAgainAt(state, runsNow ? now : jittered(state, missed.time, state.occurrence), now) },
    entry: { to: ActionStatus.Pending, attempt: 0, note: storableNote(`resumed; ${missed.note}`) },
    skipped: missed.skipped,
  };
}

/**
 * A repeating action with executions left moves one step on from its scheduled (not its actual)
 * time. When that time has already passed (downtime, a late create), its misfire policy decides.
 * It is COMPLETED after its last execution, or when its schedule has no time left at or before endAt.
 */
function succeeded(state: ActionState, event: Extract<LifecycleEvent, { type: 'succeeded' }>): Outcome {
  const { now, note: rawNote, catchUp } = event;
  const attempt = attemptNumber(state);
  const remaining = state.executionRemainder === null ? null : state.executionRemainder - 1;
  const schedule = scheduleOf(state);
  const next = schedule && (remaining === null || remaining >= 1) ? nextRun(state, schedule, now, catchUp) : null;
  if (!next?.time || (state.endAt && next.time > state.endAt)) {
    return {
      changes: {
        status: ActionStatus.Completed,
        retryCount: 0,
        lastError: null,
        executionRemainder: state.repeat ? remaining : state.executionRemainder,
        skipPending: 0,
      },
      entry: { to: ActionStatus.Completed, attempt, note: rawNote === null ? null : storableNote(rawNote) },
      finished: true,
      skipped: withinEnd(next?.skipped ?? [], state.endAt),
    };
  }
  const note = [rawNote, next.catchUpNote].filter(Boolean).join('; ') || null;
  return {
    changes: {
      status: ActionStatus.Pending,
      retryCount: 0,
      lastError: null,
      occurrence: state.occurrence + 1,
      executionRemainder: remaining,
      executionTime: next.time,
      skipPending: 0,
      ...dueAgainAt(state, dueAtOf(state, next.time, state.occurrence + 1, next.notBefore), now),
    },
    entry: { to: ActionStatus.Pending, attempt, note: note === null ? null : storableNote(note) },
    skipped: next.skipped,
  };
}

/** Where a schedule goes next, and the occurrences it skips on the way. */
interface NextTime {
  time: Date | null;
  catchUpNote?: string;
  skipped: SkippedOccurrences[];
  /** A RUN_ALL catch-up's pace: it is not due before this. */
  notBefore?: Date;
}

/** The occurrence after the current one that runs: skips asked for while the current one was covered come after it. */
function nextRun(state: ActionState, schedule: Schedule, now: Date, catchUp: CatchUpPolicy): NextTime | null {
  const scheduled = nextScheduledTime(state, schedule, now, catchUp);
  return scheduled && state.skipPending > 0 ? withRequestedSkips(scheduled, schedule, state.skipPending) : scheduled;
}

/** When the next occurrence (number `occurrence`) is due: its time plus its jitter, and never before a catch-up's pace allows. */
function dueAtOf(state: ActionState, time: Date, occurrence: number, notBefore: Date | undefined): Date {
  const dueAt = jittered(state, time, occurrence);
  return notBefore && notBefore > dueAt ? notBefore : dueAt;
}

function withRequestedSkips(next: NextTime, schedule: Schedule, count: number): NextTime {
  if (!next.time) return next;
  const requested = skipOccurrences(schedule, next.time, count, 'request');
  return { ...next, time: requested.next, skipped: [...next.skipped, ...requested.skipped] };
}

/** Occurrences after `endAt` are none of the schedule's: they are not listed as skipped. */
function withinEnd(skipped: SkippedOccurrences[], endAt: Date | null): SkippedOccurrences[] {
  return endAt ? skipped.filter((skip) => skip.time <= endAt) : skipped;
}

/**
 * The next `count` occurrences of a repeating action do not run: at once when the lock window does
 * not cover the current one (it is the first skipped; the action is COMPLETED when none is left
 * before endAt), else after the covered one ends. Skips never count as executions.
 */
function skipRequested(state: ActionState, event: Extract<LifecycleEvent, { type: 'skipRequested' }>): Outcome {
  const schedule = scheduleOf(state);
  if (!schedule) throw new TransitionRefusedError('Action runs once; only the occurrences of a repeating action can be skipped');
  if (!Number.isInteger(event.count) || event.count < 1) throw new Error(`A skip needs a whole number of occurrences, not ${event.count}`);
  const requested = `skip of the next ${event.count} occurrence(s) requested`;
  if (coversItsOccurrence(state, event.now, event.lockWindowMs)) {
    return {
      changes: { skipPending: state.skipPending + event.count },
      entry: { to: state.status, attempt: 0, note: `${requested}; occurrence ${state.occurrence} runs first` },
    };
  }
  const { skipped, next } = skipOccurrences(schedule, state.executionTime, event.count, 'request');
  if (!next || (state.endAt && next > state.endAt)) {
    return {
      changes: { status: ActionStatus.Completed, retryCount: 0 },
      entry: { to: ActionStatus.Completed, attempt: 0, note: `${requested}; no occurrence is left before endAt` },
      finished: true,
      skipped: withinEnd(skipped, state.endAt),
    };
  }
  return {
    changes: { executionTime: next, retryCount: 0, ...dueAgainAt(state, jittered(state, next, state.occurrence), event.now) },
    entry: { to: ActionStatus.Pending, attempt: 0, note: `${requested}; next at ${next.toISOString()}` },
    skipped,
  };
}

/**
 * The current occurrence's date is in the action's calendar: it is skipped (taking no occurrence
 * number, consuming no execution) and the schedule moves on as after a run, the next occurrence's
 * attempts counted afresh. A cancellation that waited for this occurrence takes effect; a pause
 * that let it run holds the next one.
 */
function onCalendarDate(state: ActionState, now: Date, catchUp: CatchUpPolicy): Outcome {
  const schedule = scheduleOf(state);
  if (!schedule || state.calendar === null) throw new TransitionRefusedError('Only a repeating action with a calendar skips the dates of its calendar');
  const skip: SkippedOccurrences = { time: state.executionTime, count: 1, reason: 'calendar' };
  const note = `${state.executionTime.toISOString()} is a date of calendar ${state.calendar}`;
  if (state.cancelRequestedAt) {
    return {
      changes: { status: ActionStatus.Canceled, skipPending: 0 },
      entry: { to: ActionStatus.Canceled, attempt: 0, note: storableNote(`${note}; canceled as requested`) },
      finished: true,
      skipped: [skip],
    };
  }
  const next = nextRun(state, schedule, now, catchUp);
  if (!next?.time || (state.endAt && next.time > state.endAt)) {
    return {
      changes: { status: ActionStatus.Completed, skipPending: 0 },
      entry: { to: ActionStatus.Completed, attempt: 0, note: `${note}; no occurrence is left before endAt` },
      finished: true,
      skipped: [skip, ...withinEnd(next?.skipped ?? [], state.endAt)],
    };
  }
  return {
    changes: {
      executionTime: next.time,
      retryCount: 0,
      skipPending: 0,
      // Skipped occurrences take no number: a pause that let this one run holds the next, which keeps it.
      ...(state.pausedFrom !== null && { pausedFrom: state.occurrence }),
      ...dueAgainAt(state, dueAtOf(state, next.time, state.occurrence, next.notBefore), now),
    },
    entry: {
      to: ActionStatus.Pending,
      attempt: 0,
      note: storableNote([`${note}; next at ${next.time.toISOString()}`, next.catchUpNote].filter(Boolean).join('; ')),
    },
    skipped: [skip, ...next.skipped],
  };
}

/**
 * Not covered by the lock window (PENDING and due later, or waiting out a retry it will no longer
 * get): CANCELED now. Covered (running, or its first attempt due within the window): only the
 * request is recorded, and the attempt's end settles it. Asking again changes nothing.
 */
function canceled(state: ActionState, event: Extract<LifecycleEvent, { type: 'canceled' }>): Outcome {
  if (TERMINAL_STATUSES.includes(state.status)) throw new TransitionRefusedError(`Action is ${state.status}; a finished action cannot be canceled`);
  if (state.cancelRequestedAt) return { changes: {}, entry: null };
  const reason = event.note === null ? '' : `: ${event.note}`;
  const covered = coversItsOccurrence(state, event.now, event.lockWindowMs) && (state.status === ActionStatus.InProgress || state.retryCount === 0);
  if (covered) {
    return {
      changes: { cancelRequestedAt: event.now },
      entry: { to: state.status, attempt: 0, note: storableNote(`cancel requested${reason}; occurrence ${state.occurrence} finishes first`) },
    };
  }
  return {
    changes: { status: ActionStatus.Canceled, cancelRequestedAt: event.now },
    entry: { to: ActionStatus.Canceled, attempt: 0, note: storableNote(`canceled${reason}`) },
    finished: true,
  };
}

/**
 * The end of an attempt whose action's owner asked to cancel it: whatever the outcome, the action
 * is CANCELED with that attempt's result, and there is no retry and no next occurrence.
 */
function endsCanceledIfAsked(state: ActionState, outcome: Outcome): Outcome {
  if (!state.cancelRequestedAt || !outcome.entry) return outcome;
  // The attempt's own record stays (its error, a consumed execution); its retry or next occurrence does not.
  const kept = (['retryCount', 'lastError', 'executionRemainder'] as const).filter((field) => outcome.changes[field] !== undefined);
  const note = [outcome.entry.note, 'canceled as requested'].filter(Boolean).join('; ');
  return {
    changes: { status: ActionStatus.Canceled, ...Object.fromEntries(kept.map((field) => [field, outcome.changes[field]])) },
    entry: { to: ActionStatus.Canceled, attempt: attemptNumber(state), note: storableNote(note) },
    finished: true,
  };
}

/** The occurrence after the current one; when its time has passed, the misfire policy decides, and what it skips is listed. */
function nextScheduledTime(state: ActionState, schedule: Schedule, now: Date, catchUp: CatchUpPolicy): NextTime | null {
  const next = nextOccurrence(schedule, state.executionTime);
  if (!next || next > now) return next && { time: next, skipped: skippedByClockChange(schedule, state.executionTime, next) };
  const missed = misfired(state, schedule, next, now, catchUp);
  if (state.misfirePolicy !== MisfirePolicy.RunAll || !missed.time) return { time: missed.time, catchUpNote: missed.note, skipped: missed.skipped };
  // After a run, RUN_ALL's catch-ups follow one another at its pace.
  const notBefore = nextCatchUpAt(now, catchUp);
  return {
    time: missed.time,
    catchUpNote: [
      olderMissedSkipped(next, missed.time, catchUp),
      `missed occurrence ${missed.time.toISOString()} runs next, at ${notBefore.toISOString()} at the earliest (RUN_ALL)`,
    ]
      .filter(Boolean)
      .join('; '),
    skipped: missed.skipped,
    notBefore,
  };
}

/**
 * Where a schedule goes when `missedFrom`, its first time still to run, has passed: the misfire
 * policy, the one rule after a run and on a resume. `RUN_ALL` catches up from the earliest of the
 * latest `catchUp.max` missed times, `RUN_ONCE` on the latest, both up to endAt (nothing runs after
 * it); `SKIP` goes on to the first time after now. The missed times it passes over are listed.
 */
function misfired(
  state: ActionState,
  schedule: Schedule,
  missedFrom: Date,
  now: Date,
  catchUp: CatchUpPolicy,
): { time: Date | null; note: string; skipped: SkippedOccurrences[] } {
  switch (state.misfirePolicy) {
    case MisfirePolicy.RunAll: {
      const first = firstCaughtUp(schedule, missedFrom, lastCatchUpTime(state, now), catchUp.max);
      const note = [olderMissedSkipped(missedFrom, first, catchUp), `missed occurrences run one after another from ${first.toISOString()} (RUN_ALL)`];
      return { time: first, note: note.filter(Boolean).join('; '), skipped: skippedBefore(schedule, missedFrom, first, 'misfire') };
    }
    case MisfirePolicy.RunOnce: {
      const latest = latestOccurrenceNotAfter(schedule, missedFrom, lastCatchUpTime(state, now));
      return {
        time: latest,
        note: `missed occurrences up to ${latest.toISOString()}: one catch-up runs now (RUN_ONCE)`,
        skipped: skippedBefore(schedule, missedFrom, latest, 'misfire'),
      };
    }
    case MisfirePolicy.Skip: {
      const after = firstOccurrenceAfter(schedule, missedFrom, now);
      return {
        time: after,
        note: after ? `missed occurrences before ${after.toISOString()} skipped (SKIP)` : 'missed occurrences skipped (SKIP)',
        skipped: after ? skippedBefore(schedule, missedFrom, after, 'misfire') : [],
      };
    }
  }
}

/** The latest missed time a catch-up may run: now, or endAt when that passed first (nothing runs after it). */
function lastCatchUpTime(state: ActionState, now: Date): Date {
  return state.endAt && state.endAt < now ? state.endAt : now;
}

/** The note of the missed occurrences before `first` that a RUN_ALL catch-up leaves out; null when it leaves none. */
function olderMissedSkipped(missedFrom: Date, first: Date, catchUp: CatchUpPolicy): string | null {
  return first > missedFrom ? `missed occurrences before ${first.toISOString()} skipped (RUN_ALL runs the latest ${catchUp.max} at most)` : null;
}

/**
 * A failed attempt: FAILED when it was permanent or the policy has no retry left, otherwise PENDING
 * again, due after the delay the fulfillment asked for or else the policy's backoff.
 */
function failed(state: ActionState, event: Extract<LifecycleEvent, { type: 'failed' }>): Outcome {
  if (event.retryAfterMs !== undefined && !(Number.isFinite(event.retryAfterMs) && event.retryAfterMs >= 0)) {
    throw new RangeError(`retryAfterMs must be a finite number of ms ≥ 0, got ${event.retryAfterMs}`);
  }
  const error = storableNote(event.error);
  const failedAttempts = attemptNumber(state);
  const base = { retryCount: failedAttempts, lastError: error };
  if (event.permanent || failedAttempts > event.retryPolicy.maxRetries) {
    return { changes: { ...base, status: ActionStatus.Failed }, entry: { to: ActionStatus.Failed, attempt: failedAttempts, note: error }, finished: true };
  }
  const delayMs = event.retryAfterMs ?? nextRetryDelay(event.retryPolicy.backoff, failedAttempts, event.random);
  const dueAt = new Date(event.now.getTime() + delayMs);
  return {
    changes: { ...base, status: ActionStatus.Pending, ...dueAgainAt(state, dueAt, event.now) },
    entry: { to: ActionStatus.Pending, attempt: failedAttempts, note: error },
  };
}

/** The lost attempt counts as failed, so an action that keeps killing its workers ends FAILED. */
function interrupted(state: ActionState, policy: RetryPolicy): Outcome {
  const lost = attemptNumber(state);
  const error = `attempt ${lost} was interrupted (worker lost)`;
  if (lost > policy.maxRetries) {
    const note = `${error}; no retries left`;
    return {
      changes: { status: ActionStatus.Failed, retryCount: lost, lastError: note },
      entry: { to: ActionStatus.Failed, attempt: lost, note },
      finished: true,
    };
  }
  return {
    changes: { retryCount: lost, lastError: error },
    entry: { to: ActionStatus.InProgress, attempt: lost + 1, note: `${error}; running it again as attempt ${lost + 1}` },
  };
}

/**
 * A client's change: fields replace the stored ones (`null` clears `endAt`, `retryPolicy`,
 * `callbackUrl`, `jitterMs` and `calendar`, and sets `dstPolicy` back to its default);
 * `repeat: false` drops the schedule. A new executionTime, cron or zone gives a new current
 * occurrence (for cron, the first cron time at or after the executionTime) and bumps the revision.
 * The result must still be a runnable schedule (`assertRunnableSchedule`).
 */
function patched(state: ActionState, { changes, by, now }: Extract<LifecycleEvent, { type: 'patched' }>): Outcome {
  // An empty change is no change: it must not grow the history.
  if (Object.values(changes).every((value) => value === undefined)) return { changes: {}, entry: null };
  const next: { -readonly [K in keyof ActionState]?: ActionState[K] } = {};
  for (const field of [
    'data',
    'metadata',
    'misfirePolicy',
    'executionRemainder',
    'endAt',
    'retryPolicy',
    'timezone',
    'callbackUrl',
    'jitterMs',
    'calendar',
  ] as const) {
    if (changes[field] !== undefined) Object.assign(next, { [field]: changes[field] });
  }
  // Whoever sets what is sent signs it, so no key can have another's signature put on its own body or URL.
  if (changes.data !== undefined) next.dataKeyId = by;
  if (changes.callbackUrl !== undefined) next.callbackKeyId = by;
  if (changes.frequency !== undefined) Object.assign(next, { frequency: changes.frequency, cron: null });
  if (changes.cron !== undefined) Object.assign(next, { cron: changes.cron, frequency: changes.frequency ?? null });
  const repeat = changes.repeat ?? state.repeat;
  if (changes.repeat !== undefined) next.repeat = repeat;
  if (changes.dstPolicy !== undefined) next.dstPolicy = changes.dstPolicy ?? (repeat ? DEFAULT_DST_POLICY : null);
  if (!repeat && changes.repeat === false) {
    Object.assign(next, { frequency: null, cron: null, executionRemainder: null, timezone: null, dstPolicy: null, calendar: null });
  }
  if (repeat && (next.timezone ?? state.timezone) === null) next.timezone = 'UTC';
  if (repeat && (next.dstPolicy ?? state.dstPolicy) === null) next.dstPolicy = DEFAULT_DST_POLICY;
  const merged = { ...state, ...next };
  const executionTime = changes.executionTime ?? state.executionTime;
  const movesSchedule =
    changes.executionTime !== undefined || changes.cron !== undefined || changes.timezone !== undefined || changes.dstPolicy !== undefined;
  if (movesSchedule) {
    const time =
      merged.repeat && merged.cron && !merged.frequency
        ? firstCronOccurrence(merged.cron, merged.timezone ?? 'UTC', executionTime, merged.dstPolicy ?? DEFAULT_DST_POLICY)
        : executionTime;
    Object.assign(next, { executionTime: time, scheduleAnchor: time, ...dueAgainAt(state, jittered(merged, time, state.occurrence), now) });
  } else if (changes.jitterMs !== undefined && state.retryCount === 0) {
    // A new jitter moves the current occurrence's first attempt (a retry keeps its backoff).
    Object.assign(next, dueAgainAt(state, jittered(merged, state.executionTime, state.occurrence), now));
  }
  assertRunnableSchedule({ ...state, ...next });
  const changed = Object.keys(changes).join(', ');
  return { changes: next, entry: { to: ActionStatus.Pending, attempt: 0, note: `updated ${changed}` } };
}
