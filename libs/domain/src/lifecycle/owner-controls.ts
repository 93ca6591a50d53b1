import { ActionStatus, MisfirePolicy } from '../action-vocabulary';
import { ActionState, heldByPause } from './action-state';
import { CatchUpPolicy } from './catch-up';
import { jittered } from './jitter';
import type { EventOf, Outcome, OwnerControl } from './lifecycle-event';
import { TransitionRefusedError } from './lifecycle.errors';
import { coversItsOccurrence } from './lock-window';
import { dueAgainAt, misfired, withinEnd } from './next-run';
import { storableNote } from './note';
import { scheduleOf } from './schedule-rules';
import { skipOccurrences } from './skips';
import { refuseFinished } from './status-guards';

/** What an action's owner asks of it: cancel, a manual retry, pause, resume, skip, deletion. */
export function ownerControl(state: ActionState, event: OwnerControl): Outcome {
  switch (event.type) {
    case 'canceled':
      return refuseFinished(state, 'canceled') ?? canceled(state, event);
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
    case 'deleted':
      if (state.status === ActionStatus.InProgress) {
        throw new TransitionRefusedError('Action is IN_PROGRESS (running now) and cannot be deleted; cancel it instead');
      }
      return { changes: {}, entry: null, deleted: true };
  }
}

/**
 * Not covered by the lock window (PENDING and due later, or waiting out a retry it will no longer
 * get): CANCELED now. Covered (running, or its first attempt due within the window): only the
 * request is recorded, and the attempt's end settles it. Asking again changes nothing.
 */
function canceled(state: ActionState, event: EventOf<'canceled'>): Outcome {
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

/** Holds the current occurrence, or the next when the lock window covers the current one. Pausing again changes nothing. */
function paused(state: ActionState, event: EventOf<'paused'>): Outcome {
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
 * The next `count` occurrences of a repeating action do not run: at once when the lock window does
 * not cover the current one (it is the first skipped; the action is COMPLETED when none is left
 * before endAt), else after the covered one ends. Skips never count as executions.
 */
function skipRequested(state: ActionState, event: EventOf<'skipRequested'>): Outcome {
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
