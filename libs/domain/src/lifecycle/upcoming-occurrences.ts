import { TERMINAL_STATUSES } from '../action-vocabulary';
import { CalendarDates, firstDayNotIn, localDay, startOfLocalDay } from '../schedule/calendar';
import { Schedule, firstOccurrenceAfter, nextOccurrence } from '../schedule/schedule';
import { ActionState } from './action-state';
import { jittered } from './jitter';
import { scheduleOf } from './schedule-rules';

/**
 * A listing looks at most this many times: occurrences (run or skipped on request) and stretches
 * of consecutive calendar dates, each passed in one step. When the schedule needs more to reach
 * `count` runs, the listing has the runs found so far: fewer times, never a long walk.
 */
export const MAX_LISTING_STEPS = 200;

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
  let time: Date | null = state.executionTime;
  for (let steps = 1; time && running.length < runs && steps <= MAX_LISTING_STEPS; steps += 1) {
    if (state.endAt && time > state.endAt) break;
    const current: boolean = time === state.executionTime;
    // The current occurrence runs (or is checked against the calendar); the next `skipPending` do not.
    if (!current && requestedSkips > 0) {
      requestedSkips -= 1;
      time = nextOccurrence(schedule, time);
      continue;
    }
    // Every attempt is checked, a retry's too: a date added after an occurrence started still stops it.
    const day: string | null = calendarDates.size > 0 ? localDay(time, schedule.timezone) : null;
    if (day !== null && calendarDates.has(day)) {
      // Requested skips still to come are occurrences, so they are passed one by one.
      time = requestedSkips > 0 ? nextOccurrence(schedule, time) : firstOccurrenceAfterDates(schedule, time, calendarDates, day);
      continue;
    }
    running.push(time);
    time = nextOccurrence(schedule, time);
  }
  return running.map((run, i) => jittered(state, run, state.occurrence + i));
}

/** The first occurrence after `time` whose local day follows the run of calendar dates that `day` (time's local day) is in. */
function firstOccurrenceAfterDates(schedule: Schedule, time: Date, dates: CalendarDates, day: string): Date | null {
  const nextFreeDay = startOfLocalDay(firstDayNotIn(dates, day), schedule.timezone);
  // Where the clocks go back over midnight, a later instant can still show an earlier day: never step back.
  return firstOccurrenceAfter(schedule, time, new Date(Math.max(nextFreeDay.getTime(), time.getTime() + 1) - 1));
}
