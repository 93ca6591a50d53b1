import { Frequency } from '../action-vocabulary';
import { CronExpression } from './cron-expression';
import { instantAt, wallTime } from './zoned-time';

/** How a repeating action recurs: a fixed frequency or a cron expression, read in an IANA zone. */
export interface Schedule {
  readonly frequency: Frequency | null;
  readonly cron: string | null;
  /** IANA zone; `UTC` unless the client gave one. */
  readonly timezone: string;
  /** The executionTime the client last set: DAILY, WEEKLY and MONTHLY keep its local wall-clock time and day. */
  readonly anchor: Date;
}

const DAY_MS = 86_400_000;
const FIXED_STEP_MS: Partial<Record<Frequency, number>> = { [Frequency.TenMins]: 10 * 60_000, [Frequency.Hourly]: 60 * 60_000 };
const CALENDAR_STEP_DAYS: Partial<Record<Frequency, number>> = { [Frequency.Daily]: 1, [Frequency.Weekly]: 7 };

/** `wall` moved by whole calendar months, the day clamped to the target month's last day (Jan 31 → Feb 28). */
export function addMonthsClamped(wall: Date, months: number): Date {
  const year = wall.getUTCFullYear();
  const month = wall.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const result = new Date(wall.getTime());
  result.setUTCFullYear(year, month, Math.min(wall.getUTCDate(), lastDay));
  return result;
}

/**
 * The scheduled time after `current`, one step on. Steps are taken from the scheduled time, never
 * from when the run happened, so a schedule does not drift. TEN_MINS and HOURLY are fixed
 * durations; DAILY, WEEKLY and MONTHLY keep the anchor's local wall-clock time in the zone across
 * daylight-saving changes; cron is the next matching local time. A local time inside a
 * spring-forward gap runs once, at the first instant after the gap; one that happens twice runs
 * once, at its first instant. Null when a cron expression never matches again.
 */
export function nextOccurrence(schedule: Schedule, current: Date): Date | null {
  if (schedule.cron) return nextCronTime(cronOf(schedule.cron), schedule.timezone, current);
  const frequency = requireFrequency(schedule);
  const fixed = FIXED_STEP_MS[frequency];
  if (fixed) return new Date(current.getTime() + fixed);
  return calendarOccurrence(schedule, frequency, calendarIndex(schedule, frequency, current) + 1);
}

/** The first cron time at or after `from`: a cron action's first occurrence. Null when it never matches. */
export function firstCronTimeAtOrAfter(cron: string, timezone: string, from: Date): Date | null {
  return nextCronTime(cronOf(cron), timezone, new Date(from.getTime() - 1));
}

/**
 * The latest scheduled time at or before `now`, stepping on from `current` (which must not be
 * after `now`). Computed directly, so a long outage costs no walk over every missed step.
 */
export function latestOccurrenceNotAfter(schedule: Schedule, current: Date, now: Date): Date {
  let latest: Date | null;
  if (schedule.cron) {
    latest = latestCronTimeNotAfter(cronOf(schedule.cron), schedule.timezone, now);
  } else {
    const frequency = requireFrequency(schedule);
    const fixed = FIXED_STEP_MS[frequency];
    if (fixed) return new Date(current.getTime() + Math.floor((now.getTime() - current.getTime()) / fixed) * fixed);
    let index = calendarIndex(schedule, frequency, now);
    latest = calendarOccurrence(schedule, frequency, index);
    while (latest > now) latest = calendarOccurrence(schedule, frequency, --index);
  }
  return latest && latest > current ? latest : current;
}

/** The first scheduled time strictly after `now`, stepping on from `current`. */
export function firstOccurrenceAfter(schedule: Schedule, current: Date, now: Date): Date | null {
  if (current > now) return current;
  return nextOccurrence(schedule, latestOccurrenceNotAfter(schedule, current, now));
}

/** Up to `count` scheduled times from `first` on (itself included), ending early when the schedule does. */
export function occurrencesFrom(schedule: Schedule, first: Date, count: number, until: (time: Date, index: number) => boolean): Date[] {
  const times: Date[] = [];
  for (let time: Date | null = first; time && times.length < count && until(time, times.length); time = nextOccurrence(schedule, time)) times.push(time);
  return times;
}

/** Parsed expressions, reused: a worker advances many actions of few schedules. */
const parsedCrons = new Map<string, CronExpression>();
const MAX_PARSED_CRONS = 1000;

function cronOf(expression: string): CronExpression {
  let cron = parsedCrons.get(expression);
  if (!cron) {
    cron = new CronExpression(expression);
    if (parsedCrons.size >= MAX_PARSED_CRONS) parsedCrons.delete(parsedCrons.keys().next().value!);
    parsedCrons.set(expression, cron);
  }
  return cron;
}

function requireFrequency(schedule: Schedule): Frequency {
  if (!schedule.frequency) throw new Error('A schedule needs a frequency or a cron expression');
  return schedule.frequency;
}

/** The calendar step (days or months from the anchor, in local dates) that `instant` falls in. */
function calendarIndex(schedule: Schedule, frequency: Frequency, instant: Date): number {
  const anchor = wallTime(schedule.anchor, schedule.timezone);
  const wall = wallTime(instant, schedule.timezone);
  if (frequency === Frequency.Monthly) {
    const months = (wall.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (wall.getUTCMonth() - anchor.getUTCMonth());
    return calendarOccurrence(schedule, frequency, months) > instant ? months - 1 : months;
  }
  const days = Math.round((startOfDay(wall) - startOfDay(anchor)) / DAY_MS);
  const index = Math.floor(days / CALENDAR_STEP_DAYS[frequency]!);
  return calendarOccurrence(schedule, frequency, index) > instant ? index - 1 : index;
}

/** The `index`-th occurrence of a calendar schedule: the anchor's local date and time moved on, resolved in the zone. */
function calendarOccurrence(schedule: Schedule, frequency: Frequency, index: number): Date {
  const anchor = wallTime(schedule.anchor, schedule.timezone);
  const wall =
    frequency === Frequency.Monthly ? addMonthsClamped(anchor, index) : new Date(anchor.getTime() + index * CALENDAR_STEP_DAYS[frequency]! * DAY_MS);
  return instantAt(wall, schedule.timezone);
}

function startOfDay(wall: Date): number {
  return Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate());
}

/**
 * Walks matching local times after `after`'s; each resolves to an instant, and the first one
 * later than `after` wins. Local times in a gap resolve to the gap's end (so they run once, there),
 * and the second pass of repeated local times resolves before `after` (so it never runs).
 */
function nextCronTime(cron: CronExpression, zone: string, after: Date): Date | null {
  for (let wall = cron.nextAfter(wallTime(after, zone)); wall; wall = cron.nextAfter(wall)) {
    const instant = instantAt(wall, zone);
    if (instant > after) return instant;
  }
  return null;
}

function latestCronTimeNotAfter(cron: CronExpression, zone: string, now: Date): Date | null {
  for (let wall = cron.previousBefore(new Date(wallTime(now, zone).getTime() + 1)); wall; wall = cron.previousBefore(wall)) {
    const instant = instantAt(wall, zone);
    if (instant <= now) return instant;
  }
  return null;
}
