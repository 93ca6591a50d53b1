import { LRUCache } from 'lru-cache';
import { Frequency } from '../action-vocabulary';
import { shortestDayGap } from './cron-day-gap';
import { CronExpression } from './cron-expression';
import { DEFAULT_DST_POLICY, DstPolicy } from './dst-policy';
import { OffsetStretch, offsetStretchFrom, offsetStretchUntil, showSameWallTime, wallTime } from './zoned-time';

/** How a repeating action recurs: a fixed frequency or a cron expression, read in an IANA zone. */
export interface Schedule {
  readonly frequency: Frequency | null;
  readonly cron: string | null;
  /** IANA zone; `UTC` unless the client gave one. */
  readonly timezone: string;
  /** The executionTime the client last set: DAILY, WEEKLY and MONTHLY keep its local wall-clock time and day. */
  readonly anchor: Date;
  /** How cron, DAILY, WEEKLY and MONTHLY meet daylight-saving changes; absent means DEFAULT_DST_POLICY. */
  readonly dstPolicy?: DstPolicy;
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
 * daylight-saving changes; cron is the next matching local time. Those local times meet a
 * daylight-saving change as the schedule's DstPolicy says, and the result is the first of their
 * instants strictly after `current` (from the first instant of a repeated time under `both`, its
 * second). Under `first` or `last` a repeated time runs once: an executionTime may name the pass
 * the policy would not run, and the other pass of that same time is then no next occurrence. Null
 * when a cron expression never matches again.
 */
export function nextOccurrence(schedule: Schedule, current: Date): Date | null {
  const fixed = fixedStep(schedule);
  if (fixed) return new Date(current.getTime() + fixed);
  const walls = wallTimesOf(schedule);
  const policy = policyOf(schedule);
  const next = firstInstantAfter(walls, schedule.timezone, policy, current);
  if (next && policy.overlap !== 'both' && showSameWallTime(current, next, schedule.timezone)) {
    return firstInstantAfter(walls, schedule.timezone, policy, next);
  }
  return next;
}

/** The first cron time at or after `from`: a cron action's first occurrence. Null when it never matches. */
export function firstCronTimeAtOrAfter(cron: string, timezone: string, from: Date, dstPolicy: DstPolicy = DEFAULT_DST_POLICY): Date | null {
  // Known from the fields at once: croner would search four hundred years for a day such as 31 February.
  if (shortestDayGap(cronOf(cron).fields()) === null) return null;
  return firstInstantAfter(cronOf(cron), timezone, dstPolicy, new Date(from.getTime() - 1));
}

/**
 * The latest scheduled time at or before `now`, stepping on from `current` (which must not be
 * after `now`). Computed directly, so a long outage costs no walk over every missed step. As in
 * nextOccurrence, the other pass of `current`'s repeated local time is no occurrence right after it.
 */
export function latestOccurrenceNotAfter(schedule: Schedule, current: Date, now: Date): Date {
  const fixed = fixedStep(schedule);
  if (fixed) return new Date(current.getTime() + Math.floor((now.getTime() - current.getTime()) / fixed) * fixed);
  const policy = policyOf(schedule);
  const latest = lastInstantUpTo(wallTimesOf(schedule), schedule.timezone, policy, now);
  if (!latest || latest <= current) return current;
  if (policy.overlap !== 'both' && showSameWallTime(current, latest, schedule.timezone)) {
    // Another occurrence between them makes it one again (nextOccurrence looks one step back only).
    const next = nextOccurrence(schedule, current);
    if (!next || next > now) return current;
  }
  return latest;
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

/**
 * Parsed expressions, reused: a worker advances many actions of few schedules, and a create reads
 * one twice (first time, shortest gap). The most recently used are kept, so a batch of distinct
 * expressions does not push out the few every worker keeps advancing.
 */
const parsedCrons = new LRUCache<string, CronExpression>({ max: 1000 });

export function cronOf(expression: string): CronExpression {
  let cron = parsedCrons.get(expression);
  if (!cron) {
    cron = new CronExpression(expression);
    parsedCrons.set(expression, cron);
  }
  return cron;
}

function policyOf(schedule: Schedule): DstPolicy {
  return schedule.dstPolicy ?? DEFAULT_DST_POLICY;
}

/** The step of TEN_MINS and HOURLY, which are durations: no wall clock, so no daylight-saving rule. */
function fixedStep(schedule: Schedule): number | undefined {
  return schedule.cron ? undefined : FIXED_STEP_MS[requireFrequency(schedule)];
}

function requireFrequency(schedule: Schedule): Frequency {
  if (!schedule.frequency) throw new Error('A schedule needs a frequency or a cron expression');
  return schedule.frequency;
}

/** The local wall times a wall-clock schedule names, in order; a CronExpression is one. */
interface WallTimes {
  /** The first named wall time strictly after `wall`, or null when there is none. */
  nextAfter(wall: Date): Date | null;
  /** The last named wall time strictly before `wall`, or null when there is none. */
  previousBefore(wall: Date): Date | null;
}

function wallTimesOf(schedule: Schedule): WallTimes {
  return schedule.cron ? cronOf(schedule.cron) : new CalendarWallTimes(wallTime(schedule.anchor, schedule.timezone), requireFrequency(schedule));
}

/** DAILY, WEEKLY and MONTHLY: the anchor's local date and time moved on by whole steps (days or months), either way. */
class CalendarWallTimes implements WallTimes {
  constructor(
    private readonly anchor: Date,
    private readonly frequency: Frequency,
  ) {}

  nextAfter(wall: Date): Date {
    return this.step(this.indexAtOrBefore(wall) + 1);
  }

  previousBefore(wall: Date): Date {
    return this.step(this.indexAtOrBefore(new Date(wall.getTime() - 1)));
  }

  private step(index: number): Date {
    if (this.frequency === Frequency.Monthly) return addMonthsClamped(this.anchor, index);
    return new Date(this.anchor.getTime() + index * CALENDAR_STEP_DAYS[this.frequency]! * DAY_MS);
  }

  /** The last step whose wall time is at or before `wall`: counted in local months or days, one back when the time of day is not reached yet. */
  private indexAtOrBefore(wall: Date): number {
    const index =
      this.frequency === Frequency.Monthly
        ? (wall.getUTCFullYear() - this.anchor.getUTCFullYear()) * 12 + (wall.getUTCMonth() - this.anchor.getUTCMonth())
        : Math.floor(Math.round((startOfDay(wall) - startOfDay(this.anchor)) / DAY_MS) / CALENDAR_STEP_DAYS[this.frequency]!);
    return this.step(index) > wall ? index - 1 : index;
  }
}

function startOfDay(wall: Date): number {
  return Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate());
}

/** Wall times from `from` (inclusive) to `before` (exclusive), in ms. */
interface WallRange {
  readonly from: number;
  readonly before: number;
}

/**
 * The wall times a stretch shows that run there under `policy`: all it shows, less the repeated
 * ones (where the clocks go back at its end, or went back at its start) that run at their other pass.
 */
function wallTimesRunIn(stretch: OffsetStretch, policy: DstPolicy): WallRange {
  const wentBack = stretch.offsetBefore > stretch.offset && policy.overlap === 'first';
  const goesBack = stretch.offsetAfter < stretch.offset && policy.overlap === 'last';
  return {
    from: stretch.start + (wentBack ? stretch.offsetBefore : stretch.offset),
    before: stretch.end + (goesBack ? stretch.offsetAfter : stretch.offset),
  };
}

/** The wall times the clocks jumped over at the stretch's start, when `policy` runs them there (at `start`); else null. */
function gapShiftedTo(stretch: OffsetStretch, policy: DstPolicy): WallRange | null {
  if (stretch.offsetBefore >= stretch.offset || policy.gap !== 'shift') return null;
  return { from: stretch.start + stretch.offsetBefore, before: stretch.start + stretch.offset };
}

/** Whether the schedule names a wall time in `range` (none when there is no range). */
function namesAnyIn(walls: WallTimes, range: WallRange | null): boolean {
  const named = range && walls.nextAfter(new Date(range.from - 1));
  return !!named && named.getTime() < range.before;
}

/**
 * The earliest instant after `after` at which a named wall time runs under `policy`. Instants are
 * taken in stretches of one offset, in which wall-time order is instant order, so a stretch's
 * first named wall time is its earliest run; where the clocks change, the policy decides which
 * pass of a repeated time runs and whether skipped times run at the jump's end.
 */
function firstInstantAfter(walls: WallTimes, zone: string, policy: DstPolicy, after: Date): Date | null {
  const from = after.getTime() + 1;
  // Begin a day back, so that a change just before `from` is met and its repeated times are known as such.
  for (let start = from - DAY_MS; ;) {
    const stretch = offsetStretchFrom(start, zone);
    if (stretch.start >= from && namesAnyIn(walls, gapShiftedTo(stretch, policy))) return new Date(stretch.start);
    const runs = wallTimesRunIn(stretch, policy);
    const lowest = Math.max(runs.from, from + stretch.offset);
    const named = lowest < runs.before ? walls.nextAfter(new Date(lowest - 1)) : undefined;
    if (named === null) return null; // no named wall time ever again
    if (named && named.getTime() < runs.before) return new Date(named.getTime() - stretch.offset);
    start = stretch.end;
    if (named && named.getTime() - stretch.offset > start + DAY_MS) {
      // A long wait: every instant from `start` on shows a wall time above `start` − a day, and
      // offsets are under a day, so nothing runs before the first named time above that, less a day.
      const next = walls.nextAfter(new Date(start - DAY_MS));
      if (!next) return null;
      start = Math.max(start, next.getTime() - DAY_MS);
    }
  }
}

/** The latest instant at or before `notAfter` at which a named wall time runs under `policy`: firstInstantAfter, walking back. */
function lastInstantUpTo(walls: WallTimes, zone: string, policy: DstPolicy, notAfter: Date): Date | null {
  const until = notAfter.getTime() + 1;
  // Begin a day on, so that a change just after `notAfter` is met and the repeated times before it are known as such.
  for (let end = until + DAY_MS; ;) {
    const stretch = offsetStretchUntil(end, zone);
    const runs = wallTimesRunIn(stretch, policy);
    const beyond = Math.min(runs.before, until + stretch.offset);
    const named = runs.from < beyond ? walls.previousBefore(new Date(beyond)) : undefined;
    if (named === null) return null; // no named wall time before
    if (named && named.getTime() >= runs.from) return new Date(named.getTime() - stretch.offset);
    if (stretch.start < until && namesAnyIn(walls, gapShiftedTo(stretch, policy))) return new Date(stretch.start);
    end = stretch.start;
    if (named && named.getTime() - stretch.offset < end - DAY_MS) {
      // A long way back: every instant before `end` shows a wall time below `end` + a day, and
      // offsets are under a day, so nothing ran after the last named time below that, plus a day.
      const previous = walls.previousBefore(new Date(end + DAY_MS));
      if (!previous) return null;
      end = Math.min(end, previous.getTime() + DAY_MS);
    }
  }
}
