import { ActionStatus } from '../action-vocabulary';
import { localDay } from '../schedule/calendar';
import { ActionState, heldByPause } from './action-state';

/** What the readers of due actions look at. */
type DueState = Pick<ActionState, 'status' | 'occurrence' | 'pausedFrom' | 'nextAttemptAt'>;

/** Whether the occurrence may start at `now`: PENDING, due, and not held by a pause. */
export function claimable(state: DueState, now: Date): boolean {
  return state.status === ActionStatus.Pending && state.nextAttemptAt <= now && !heldByPause(state);
}

/** Whether a PENDING occurrence not held by a pause was due before `dueBefore`: it should have started, and its job may be lost. */
export function overdue(state: DueState, dueBefore: Date): boolean {
  return state.status === ActionStatus.Pending && state.nextAttemptAt < dueBefore && !heldByPause(state);
}

/**
 * Whether the action ends NO_ACTION at `now`: it may start, or it is IN_PROGRESS with a lapsed claim
 * (its worker died mid-attempt, and only a worker knowing its type could take it over), and it has
 * waited so for `graceMs` during which no live worker knew its type (now − max(due time or lapse,
 * last time a live worker knew the type) ≥ grace). `typeKnownUntil` is when the last worker that
 * knew the type stopped being live, a time still to come while one lives; null when no worker on
 * record knew it. Never while paused, never because one worker lacks the type.
 */
export function endsForUnknownType(
  state: DueState & { readonly claimedUntil: Date | null },
  now: Date,
  graceMs: number,
  typeKnownUntil: Date | null,
): boolean {
  const lapsed = state.status === ActionStatus.InProgress && state.claimedUntil !== null && state.claimedUntil <= now;
  if (!claimable(state, now) && !lapsed) return false;
  const waitingSince = lapsed ? state.claimedUntil.getTime() : state.nextAttemptAt.getTime();
  return now.getTime() - Math.max(waitingSince, typeKnownUntil?.getTime() ?? -Infinity) >= graceMs;
}

/** The local date of the current occurrence in the action's zone (UTC for a one-off action, which has none): the day its calendar is checked against. */
export function occurrenceLocalDay(state: Pick<ActionState, 'executionTime' | 'timezone'>): string {
  return localDay(state.executionTime, state.timezone ?? 'UTC');
}
