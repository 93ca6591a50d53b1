import { LRUCache } from 'lru-cache';
import { Frequency } from '../action-vocabulary';
import { LONGEST_DAY_GAP, shortestDayGap } from './cron-day-gap';
import { DEFAULT_DST_POLICY, DstPolicy } from './dst-policy';
import { Schedule, cronOf } from './schedule';
import { TimesOfDay, cronTimesOfDay, singleTimeOfDay } from './times-of-day';
import { ClockChange, clockChanges, wallTime } from './zoned-time';

const DAY_MS = 86_400_000;

/** TEN_MINS and HOURLY are durations: no wall clock, no clock change. */
const FIXED_STEP_MS: Partial<Record<Frequency, number>> = { [Frequency.TenMins]: 10 * 60_000, [Frequency.Hourly]: 3_600_000 };
/** The fewest days between two occurrences of a wall-clock frequency (MONTHLY: a 28-day February, the day clamped). */
const STEP_DAYS: Partial<Record<Frequency, number>> = { [Frequency.Daily]: 1, [Frequency.Weekly]: 7, [Frequency.Monthly]: 28 };

/** What a wall-clock schedule names: the same times on each day it runs, the days at least `dayGap` apart. */
interface WallSchedule {
  readonly times: TimesOfDay;
  readonly dayGap: number;
}

/** Found once per expression: a batch of one schedule pays once. */
const cronWallSchedules = new LRUCache<string, WallSchedule>({ max: 1000 });

/**
 * The shortest time between two consecutive scheduled occurrences of `schedule` (before jitter),
 * in ms, on every date it can reach, found from its fields rather than by walking it: exact on the
 * wall clock, and a lower bound where the zone's clocks change (exact when they change outside
 * the times the schedule names).
 */
export function shortestRepeatInterval(schedule: Schedule): number {
  const fixed = schedule.frequency && FIXED_STEP_MS[schedule.frequency];
  if (fixed) return fixed;
  const wall = schedule.cron ? cronWallSchedule(schedule.cron) : frequencyWallSchedule(schedule);
  const policy = schedule.dstPolicy ?? DEFAULT_DST_POLICY;
  return clockChanges(schedule.timezone).reduce((shortest, change) => Math.min(shortest, shortestAcross(change, wall, policy)), shortestOnWallClock(wall));
}

function cronWallSchedule(expression: string): WallSchedule {
  let wall = cronWallSchedules.get(expression);
  if (!wall) {
    const fields = cronOf(expression).fields();
    wall = { times: cronTimesOfDay(fields.hours, fields.minutes, fields.seconds), dayGap: shortestDayGap(fields) ?? LONGEST_DAY_GAP };
    cronWallSchedules.set(expression, wall);
  }
  return wall;
}

/** DAILY, WEEKLY and MONTHLY: the anchor's local time of day, every one, seven or (at least) 28 days. */
function frequencyWallSchedule(schedule: Schedule): WallSchedule {
  const anchor = wallTime(schedule.anchor, schedule.timezone).getTime();
  return { times: singleTimeOfDay(((anchor % DAY_MS) + DAY_MS) % DAY_MS), dayGap: STEP_DAYS[schedule.frequency!]! };
}

/** Within a day, or from a day's last time to the first of the next day it runs on. */
function shortestOnWallClock({ times, dayGap }: WallSchedule): number {
  return Math.min(times.shortestGap, dayGap * DAY_MS - (times.last - times.first));
}

/**
 * The shortest gap between occurrences around one clock change, in ms (Infinity when it makes none
 * shorter). The change is put on a day the schedule runs on, on the day after one, or the day
 * before one, with the neighbouring run days `dayGap` away: closer than they can be, so no gap
 * found is longer than one the change can make.
 */
function shortestAcross(change: ClockChange, wall: WallSchedule, policy: DstPolicy): number {
  let shortest = Infinity;
  for (const runDay of [-1, 0, 1]) {
    const named = new NamedWallTimes(wall.times, [runDay - wall.dayGap, runDay, runDay + wall.dayGap]);
    shortest = Math.min(shortest, change.by > 0 ? acrossJump(change, named, policy) : acrossFallBack(change, named, policy));
  }
  return shortest;
}

/**
 * The clocks jump from `at` to `at + by`: the times in between do not exist. Under `shift` they
 * run (once) at the jump, so the gaps are from the last time before it to the jump, and from the
 * jump to the first time after it; under `skip`, or with no time in between, from the last time
 * before to the first after, less the jump.
 */
function acrossJump({ at, by }: ClockChange, named: NamedWallTimes, policy: DstPolicy): number {
  const before = named.before(at);
  const after = named.atOrAfter(at + by);
  if (policy.gap === 'shift' && named.atOrAfter(at) < at + by) {
    // A first time right at the jump's end runs with the shifted ones: one occurrence, no gap.
    return Math.min(at - before, after > at + by ? after - (at + by) : Infinity);
  }
  return after - before - by;
}

/**
 * The clocks go back from `at` to `at + by`: the times in between show twice. Only `both` runs
 * them twice; then the last of them on the first pass is followed by the first on the second.
 */
function acrossFallBack({ at, by }: ClockChange, named: NamedWallTimes, policy: DstPolicy): number {
  const repeatedFrom = at + by;
  const lastOnFirstPass = named.before(at);
  if (policy.overlap !== 'both' || lastOnFirstPass < repeatedFrom) return Infinity;
  return named.atOrAfter(repeatedFrom) - by - lastOnFirstPass;
}

/** The wall times (ms from day 0's midnight) a schedule names on a few days; -Infinity or Infinity when there is none. */
class NamedWallTimes {
  constructor(
    private readonly times: TimesOfDay,
    private readonly days: readonly number[],
  ) {}

  atOrAfter(wall: number): number {
    for (const day of this.days) {
      const time = this.times.atOrAfter(wall - day * DAY_MS);
      if (time !== null) return day * DAY_MS + time;
    }
    return Infinity;
  }

  before(wall: number): number {
    for (const day of [...this.days].reverse()) {
      const time = this.times.before(wall - day * DAY_MS);
      if (time !== null) return day * DAY_MS + time;
    }
    return -Infinity;
  }
}
