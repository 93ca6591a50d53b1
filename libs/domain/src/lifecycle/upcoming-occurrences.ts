import { TERMINAL_STATUSES } from '../action-vocabulary';
import { occurrencesFrom } from '../schedule/schedule';
import { ActionState } from './action-state';
import { jittered } from './jitter';
import { scheduleOf } from './schedule-rules';

/**
 * The times an action runs at from its current occurrence on, at most `count`, honouring
 * `executionRemainder`, `endAt`, the skips asked for after the current occurrence and each
 * occurrence's jitter: the same recurrence the lifecycle advances the action by. A finished action
 * has none; a one-off action has its one.
 */
export function upcomingOccurrences(state: ActionState, count: number): Date[] {
  if (TERMINAL_STATUSES.includes(state.status)) return [];
  const schedule = scheduleOf(state);
  if (!schedule) return [jittered(state, state.executionTime, state.occurrence)];
  const runs = Math.min(count, state.executionRemainder ?? count);
  const times = occurrencesFrom(schedule, state.executionTime, runs + state.skipPending, (time) => !state.endAt || time <= state.endAt);
  // Skipped occurrences are not executions: the current one runs, the next `skipPending` do not.
  const running = [...times.slice(0, 1), ...times.slice(1 + state.skipPending)].slice(0, runs);
  return running.map((time, i) => jittered(state, time, state.occurrence + i));
}
