import type { LifecycleEvent } from './lifecycle-event';

/** How an attempt ended: what `punctual_attempts_total` and the console's activity count. */
export type AttemptOutcome = 'succeeded' | 'failed' | 'no_action';
export const ATTEMPT_OUTCOMES: readonly AttemptOutcome[] = ['succeeded', 'failed', 'no_action'];

/** The name a history entry records of the event that wrote it: a lifecycle event, or the action's creation. */
export type HistoryEvent = LifecycleEvent['type'] | 'created';

const OUTCOME_OF: Partial<Record<HistoryEvent, AttemptOutcome>> = {
  succeeded: 'succeeded',
  failed: 'failed',
  // The attempt's worker died: it counts as failed.
  interrupted: 'failed',
  // The running attempt, or the due occurrence, ended because no live worker knew the type.
  typeUnknown: 'no_action',
};

/** The attempt outcome an event's own history entry records; null for an event that ends no attempt. */
export function attemptOutcomeOf(event: HistoryEvent): AttemptOutcome | null {
  return OUTCOME_OF[event] ?? null;
}
