import { ActionStatus, TERMINAL_STATUSES } from '../action-vocabulary';
import type { ActionState } from './action-state';
import type { LifecycleEvent } from './lifecycle-event';
import { TransitionRefusedError } from './lifecycle.errors';

/** Each refuses an event the status does not allow, and returns nothing otherwise, so a dispatch reads `guard ?? outcome`. */
export function requireStatus(state: ActionState, event: LifecycleEvent['type'], allowed: ActionStatus[]): undefined {
  if (!allowed.includes(state.status)) throw new TransitionRefusedError(`Action is ${state.status}; "${event}" applies only to ${allowed.join(' or ')}`);
  return undefined;
}

export function refuseFinished(state: ActionState, verb: string): undefined {
  if (TERMINAL_STATUSES.includes(state.status)) throw new TransitionRefusedError(`Action is ${state.status}; a finished action cannot be ${verb}`);
  return undefined;
}
