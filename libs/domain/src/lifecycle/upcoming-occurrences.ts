import { TERMINAL_STATUSES } from '../action-vocabulary';
import { CalendarDates, localDay } from '../schedule/calendar';
import { nextOccurrence } from '../schedule/schedule';
import { ActionState } from './action-state';
import { jittered } from './jitter';
import { MAX_COUNTED_SKIPS } from './skips';
import { scheduleOf } from './schedule-rules';

/**
 * The times an action runs at from its current occurrence on, at most `count`, honouring
 * `executionRemainder`, `endAt`, the skips asked for after the current occurrence, the dates of its
 * calendar (`calendarDates`, the calendar as it is now) and each occurrence's jitter: the same
 * recurrence the lifecycle advances the action by. A finished action has none; a one-off action
 * has its one.
 */
export function upcomingOccurrences(state: ActionState, count: number, calendarDates: CalendarDates = new Set()): Date[] {
  if (TERMINAL_STATUSES.includes(state.status)) return [];
  const schedule = scheduleOf(state);
  if (!schedule) return [jittered(state, state.executionTime, state.occurrence)];
  const runs = Math.min(count, state.executionRemainder ?? count);
  const running: Date[] = [];
  let requestedSkips = state.skipPending;
  let passed = 0;
  for (let time: Date | null = state.executionTime; time && running.length < runs; time = nextOccurrence(schedule, time)) {
    if (state.endAt && time > state.endAt) break;
    // However many dates a calendar holds, a listing never walks a schedule for long.
    if ((passed += 1) > MAX_COUNTED_SKIPS) break;
    const current = time === state.executionTime;
    // The current occurrence runs (or is checked against the calendar); the next `skipPending` do not.
    if (!current && requestedSkips > 0) {
      requestedSkips -= 1;
      continue;
    }
    // A started occurrence finishes its retries whatever its calendar says since.
    const checked = !current || state.retryCount === 0;
    if (checked && calendarDates.has(localDay(time, schedule.timezone))) continue;
    running.push(time);
  }
  return running.map((time, i) => jittered(state, time, state.occurrence + i));
}
