import type { HistoryDraft, ActionState, Transition } from './action-state';
import { patched } from './client-patch';
import type { LifecycleEvent, Outcome } from './lifecycle-event';
import { noticeOf } from './lifecycle-notice';
import { ownerControl } from './owner-controls';
import { runEvent } from './run-events';
import { skipNoticesOf } from './skips';

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

/** Each family of events has its own file; this only sends an event to its family. */
function apply(state: ActionState, event: LifecycleEvent): Outcome {
  switch (event.type) {
    case 'claimed':
    case 'succeeded':
    case 'failed':
    case 'interrupted':
    case 'typeUnknown':
    case 'calendarDate':
      return runEvent(state, event);
    case 'canceled':
    case 'retriedManually':
    case 'paused':
    case 'resumed':
    case 'skipRequested':
    case 'deleted':
      return ownerControl(state, event);
    case 'patched':
      return patched(state, event);
  }
}
