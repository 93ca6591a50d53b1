import { ActionStatus } from '../action-vocabulary';
import { nextRetryDelay } from '../next-retry-delay';
import { ActionState, attemptNumber } from './action-state';
import type { CatchUpPolicy } from './catch-up';
import type { EventOf, Outcome, RunEvent } from './lifecycle-event';
import { TransitionRefusedError } from './lifecycle.errors';
import { dueAgainAt, dueAtOf, nextRun, withinEnd } from './next-run';
import { storableNote } from './note';
import type { RetryPolicy } from './retry-policy';
import { scheduleOf } from './schedule-rules';
import type { SkippedOccurrences } from './skips';
import { requireStatus } from './status-guards';

/** An occurrence coming due and running: its claim, an attempt's end, an unknown type, a date of its calendar. */
export function runEvent(state: ActionState, event: RunEvent): Outcome {
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
    case 'calendarDate':
      return requireStatus(state, event.type, [ActionStatus.Pending]) ?? onCalendarDate(state, event.now, event.catchUp);
  }
}

/**
 * A repeating action with executions left moves one step on from its scheduled (not its actual)
 * time. When that time has already passed (downtime, a late create), its misfire policy decides.
 * It is COMPLETED after its last execution, or when its schedule has no time left at or before endAt.
 */
function succeeded(state: ActionState, event: EventOf<'succeeded'>): Outcome {
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

/**
 * A failed attempt: FAILED when it was permanent or the policy has no retry left, otherwise PENDING
 * again, due after the delay the fulfillment asked for or else the policy's backoff.
 */
function failed(state: ActionState, event: EventOf<'failed'>): Outcome {
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
