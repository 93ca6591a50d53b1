import { ActionState, Transition, UnlockedGuard } from '@app/domain';
import { ActionEntity } from '../entities/action.entity';
import type { TransitionGuard } from '../ports/lifecycle-store.port';
import { OUTCOME_FIELDS } from './record-outcomes.statement';
import { changedFields } from './state-columns';

/** What a store does with a transition under its guard: the rules every implementation of the store port follows. */
export type WritePlan =
  | { kind: 'delete'; guard: UnlockedGuard }
  /** Nothing to write: the action stays as it was. */
  | { kind: 'nothing' }
  | { kind: 'change'; guard: UnlockedGuard; changed: (keyof ActionState)[] }
  | { kind: 'outcome'; changed: (keyof ActionState)[] };

/**
 * Sorts a transition into the write it needs, refusing (throwing) what no store may write: a
 * deletion under a claim, two history entries, an outcome without a claim or one that changes a
 * field frozen while its attempt runs.
 */
export function writePlanOf(transition: Transition<ActionEntity>, guard: TransitionGuard): WritePlan {
  if (transition.deleted) {
    if (guard.kind !== 'revision') throw new Error('An action is deleted only at the revision read, never under a claim');
    return { kind: 'delete', guard };
  }
  if (transition.history.length === 0) return { kind: 'nothing' };
  if (transition.history.length > 1) throw new Error('A transition writes at most one history entry');
  const changed = changedFields(transition.before, transition.after);
  if (guard.kind === 'revision') return { kind: 'change', guard, changed };
  if (!transition.before.claimToken) throw new Error('An outcome is written only under the claim it was computed with');
  const frozen = changed.filter((field) => !OUTCOME_FIELDS.includes(field));
  if (frozen.length > 0) throw new Error(`An attempt's outcome cannot change ${frozen.join(', ')}: those are frozen while it runs`);
  return { kind: 'outcome', changed };
}
