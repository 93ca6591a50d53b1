import { ActionStatus, TERMINAL_STATUSES } from '../action-vocabulary';
import { ActionState, heldByPause } from './action-state';
import { TransitionRefusedError } from './lifecycle.errors';

/** Actions due before this instant are locked against change: they may be about to run. */
export function lockedBefore(now: Date, lockWindowMs: number): Date {
  return new Date(now.getTime() + lockWindowMs);
}

/**
 * Whether the lock window covers the action's current occurrence: it is running, or PENDING and
 * scheduled within the window (`executionTime`, not a retry's later `nextAttemptAt`: an occurrence
 * stays covered while its retries run). A client's change cannot touch a covered occurrence. An
 * occurrence a pause holds is not about to run, so nothing covers it.
 */
export function coversItsOccurrence(
  state: Pick<ActionState, 'status' | 'executionTime' | 'occurrence' | 'pausedFrom'>,
  now: Date,
  lockWindowMs: number,
): boolean {
  if (state.status === ActionStatus.InProgress) return true;
  return state.status === ActionStatus.Pending && !heldByPause(state) && state.executionTime <= lockedBefore(now, lockWindowMs);
}

/**
 * What storage must find still true of a row for a client's change or deletion to be written: the
 * status it was read in and, while PENDING, an occurrence due after the lock window. Storage
 * enforces it in the same statement as the write, so a race with a claim is decided there.
 */
export interface UnlockedGuard {
  readonly statuses: readonly ActionStatus[];
  readonly dueAfter?: Date;
}

/**
 * The lock-window rule: a PENDING action can be changed or deleted only while it is due more
 * than the lock window ahead; IN_PROGRESS is always locked; finished actions can be deleted but
 * not changed. Throws the reason when the action is locked; otherwise answers the guard under
 * which storage writes the change.
 */
export function unlockedGuard(state: ActionState & { id: string }, verb: 'changed' | 'deleted', now: Date, lockWindowMs: number): UnlockedGuard {
  // A locked action can still be stopped: a refused delete says how.
  const stop = verb === 'deleted' ? `; to stop it, use POST /actions/${state.id}/cancel` : '';
  if (state.status === ActionStatus.InProgress) {
    throw new TransitionRefusedError(`Action ${state.id} is IN_PROGRESS (running now) and cannot be ${verb}${stop}`);
  }
  if (TERMINAL_STATUSES.includes(state.status)) {
    if (verb === 'deleted') return { statuses: [state.status] };
    throw new TransitionRefusedError(`Action ${state.id} is ${state.status}; finished actions can be deleted but not changed`);
  }
  if (coversItsOccurrence(state, now, lockWindowMs)) {
    throw new TransitionRefusedError(
      `Action ${state.id} is due at ${state.executionTime.toISOString()}, inside the lock window of ${lockWindowMs} ms; ` +
        `it can only be ${verb} while its executionTime is further ahead${stop}`,
    );
  }
  // A held occurrence stays held until a resume, which gives it a new revision: the revision guard is enough.
  if (heldByPause(state)) return { statuses: [state.status] };
  return { statuses: [state.status], dueAfter: lockedBefore(now, lockWindowMs) };
}
