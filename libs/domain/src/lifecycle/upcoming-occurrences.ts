import { TERMINAL_STATUSES } from '../action-vocabulary';
import { occurrencesFrom } from '../schedule/schedule';
import { ActionState } from './action-state';
import { scheduleOf } from './schedule-rules';

/**
 * The scheduled times of an action from its current occurrence on, at most `count`, honouring
 * `executionRemainder` and `endAt`: the same recurrence the lifecycle advances the action by.
 * A finished action has none; a one-off action has its one.
 */
export function upcomingOccurrences(state: ActionState, count: number): Date[] {
  if (TERMINAL_STATUSES.includes(state.status)) return [];
  const schedule = scheduleOf(state);
  if (!schedule) return [state.executionTime];
  const limit = Math.min(count, state.executionRemainder ?? count);
  return occurrencesFrom(schedule, state.executionTime, limit, (time) => !state.endAt || time <= state.endAt);
}
