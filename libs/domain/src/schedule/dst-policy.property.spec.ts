import fc from 'fast-check';
import { Frequency } from '../action-vocabulary';
import { CronExpression } from './cron-expression';
import { DEFAULT_DST_POLICY, DST_GAP_RULES, DST_OVERLAP_RULES, DstPolicy } from './dst-policy';
import { Schedule, firstOccurrenceAfter, latestOccurrenceNotAfter, nextOccurrence } from './schedule';
import { instantAt, showSameWallTime, wallTime } from './zoned-time';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
// Every zone here moves its clocks by one hour, so a repeated local time's two instants are an hour apart.
const ZONES = ['Europe/Berlin', 'America/New_York', 'Australia/Sydney', 'America/Santiago', 'Europe/London'];

/** The instants at which `zone` changed offset in 2026–2028, found by scanning days, then halving to the minute. */
function changesOf(zone: string): number[] {
  const offset = (t: number) => wallTime(new Date(t), zone).getTime() - t;
  const changes: number[] = [];
  for (let day = Date.UTC(2026, 0, 1); day < Date.UTC(2029, 0, 1); day += DAY) {
    if (offset(day) === offset(day + DAY)) continue;
    let [low, high] = [day, day + DAY];
    while (high - low > MINUTE) {
      const middle = low + Math.floor((high - low) / 2 / MINUTE) * MINUTE;
      if (offset(middle) === offset(low)) low = middle;
      else high = middle;
    }
    changes.push(high);
  }
  return changes;
}
const CHANGES = ZONES.flatMap((zone) => changesOf(zone).map((change) => ({ zone, change })));

const policy: fc.Arbitrary<DstPolicy> = fc.record({ gap: fc.constantFrom(...DST_GAP_RULES), overlap: fc.constantFrom(...DST_OVERLAP_RULES) });
// Cron expressions over the hours clocks change at in these zones: 01:00–03:00, and midnight in Santiago.
const cronExpression = fc
  .tuple(fc.constantFrom('0', '30', '59', '*/15', '0,45'), fc.constantFrom('1-3', '0-4', '2', '1', '23,0', '0', '*'), fc.constantFrom('*', 'SUN', '0,6'))
  .map(([minute, hour, weekday]) => `${minute} ${hour} * * ${weekday}`);
interface Calendar {
  readonly frequency: Frequency;
  readonly hour: number;
  readonly minute: number;
  readonly steps: number;
}
// Calendar schedules whose local time of day is one the clocks skip or repeat, anchored `steps` steps before the change day.
const calendar: fc.Arbitrary<Calendar> = fc.record({
  frequency: fc.constantFrom(Frequency.Daily, Frequency.Weekly, Frequency.Monthly),
  hour: fc.constantFrom(23, 0, 1, 2, 3),
  minute: fc.constantFrom(0, 30, 59),
  steps: fc.integer({ min: 1, max: 3 }),
});
interface Around {
  readonly zone: string;
  readonly change: number;
  readonly policy: DstPolicy;
  /** The walk: from `start` (exclusive) to `end`. */
  readonly start: number;
  readonly end: number;
}
/** A change, a policy, and a walk starting up to `hours` before the change (or just after it) and ending `hours` after it. */
const around = (hours: number): fc.Arbitrary<Around> =>
  fc
    .record({ at: fc.constantFrom(...CHANGES), policy, startMinutes: fc.integer({ min: -hours * 60, max: 60 }) })
    .map(({ at, policy, startMinutes }) => ({ ...at, policy, start: at.change + startMinutes * MINUTE, end: at.change + hours * HOUR }));
// Cron schedules repeat within the hours around a change; calendar ones need the days either side.
const CRON_HOURS = 6;
const CALENDAR_HOURS = 26;

interface Case {
  readonly schedule: Schedule;
  readonly scheduled: (wall: Date) => boolean;
  readonly start: number;
  readonly end: number;
  readonly change: number;
}

function cronCase(expression: string, { zone, change, policy: dstPolicy, start, end }: Around): Case {
  const cron = new CronExpression(expression);
  const schedule: Schedule = { frequency: null, cron: expression, timezone: zone, anchor: new Date(change), dstPolicy };
  return { schedule, scheduled: (wall) => cron.matches(wall), start, end, change };
}

function calendarCase({ frequency, hour, minute, steps }: Calendar, { zone, change, policy: dstPolicy, start, end }: Around): Case | null {
  const changeDay = wallTime(new Date(change), zone);
  const [year, month, day] = [changeDay.getUTCFullYear(), changeDay.getUTCMonth(), changeDay.getUTCDate()];
  const anchorWall =
    frequency === Frequency.Monthly
      ? new Date(Date.UTC(year, month - steps, Math.min(day, daysIn(year, month - steps)), hour, minute))
      : new Date(Date.UTC(year, month, day - steps * (frequency === Frequency.Weekly ? 7 : 1), hour, minute));
  const anchor = instantAt(anchorWall, zone);
  if (wallTime(anchor, zone).getTime() !== anchorWall.getTime()) return null; // the anchor is a time the client gave, so one that exists
  const schedule: Schedule = { frequency, cron: null, timezone: zone, anchor, dstPolicy };
  const scheduled = (wall: Date) =>
    wall.getUTCHours() === hour &&
    wall.getUTCMinutes() === minute &&
    (frequency !== Frequency.Weekly || wall.getUTCDay() === anchorWall.getUTCDay()) &&
    (frequency !== Frequency.Monthly || wall.getUTCDate() === Math.min(anchorWall.getUTCDate(), daysIn(wall.getUTCFullYear(), wall.getUTCMonth())));
  return { schedule, scheduled, start: Math.max(anchor.getTime(), start), end, change };
}

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/** The local wall time of every minute from an hour before `from` to an hour after `to`, read once. */
function wallsByMinute(zone: string, from: number, to: number): (t: number) => number {
  const first = from - HOUR;
  const walls: number[] = [];
  for (let t = first; t <= to + HOUR; t += MINUTE) walls.push(wallTime(new Date(t), zone).getTime());
  return (t) => walls[(t - first) / MINUTE];
}

/**
 * An independent model of the policy, minute by minute in real time: a minute whose local time is
 * scheduled runs, unless that local time happens twice and the policy wants the other pass; a
 * minute right after a jump forward runs (once) when the jump skipped a scheduled local time and
 * the policy shifts gap times.
 */
function model({ schedule, scheduled, start, end }: Case, wall: (t: number) => number): number[] {
  const { gap, overlap } = schedule.dstPolicy!;
  const runs: number[] = [];
  for (let t = start + MINUTE; t <= end; t += MINUTE) {
    const [here, previous] = [wall(t), wall(t - MINUTE)];
    // `start` counts as a run (an executionTime may name either pass): under first or last, the other pass of its
    // local time is no occurrence right after it.
    if (overlap !== 'both' && runs.length === 0 && here === wall(start) && t - start < 3 * HOUR) continue;
    let skippedScheduled = false;
    for (let skipped = previous + MINUTE; skipped < here; skipped += MINUTE) skippedScheduled ||= scheduled(new Date(skipped));
    const [firstPass, secondPass] = [wall(t + HOUR) === here, wall(t - HOUR) === here];
    const passWanted = overlap === 'both' || (!firstPass && !secondPass) || (overlap === 'first' ? firstPass : secondPass);
    if ((scheduled(new Date(here)) && passWanted) || (skippedScheduled && gap === 'shift')) runs.push(t);
  }
  return runs;
}

function walk(schedule: Schedule, start: number, end: number): number[] {
  const times: number[] = [];
  for (let time = nextOccurrence(schedule, new Date(start)); time && time.getTime() <= end && times.length < 1000; time = nextOccurrence(schedule, time)) {
    times.push(time.getTime());
  }
  return times;
}

const iso = (times: number[]) => times.map((t) => new Date(t).toISOString());

function checkWalk(testCase: Case): void {
  const { schedule, scheduled, start, end } = testCase;
  const { gap, overlap } = schedule.dstPolicy!;
  const wall = wallsByMinute(schedule.timezone, start, end);
  const times = walk(schedule, start, end);
  // Never a time twice, never backwards, never in place.
  [start, ...times].forEach((time, index, all) => index > 0 && expect(time).toBeGreaterThan(all[index - 1]));
  for (const time of times) {
    const [here, previous] = [wall(time), wall(time - MINUTE)];
    // A run is at a scheduled local time, or at the end of a jump over one when gap times are
    // shifted: under skip, nothing runs for a skipped time, on the change day or any other.
    const shiftedGapTime =
      gap === 'shift' &&
      here - previous > MINUTE &&
      Array.from({ length: (here - previous) / MINUTE - 1 }, (_, i) => previous + (i + 1) * MINUTE).some((w) => scheduled(new Date(w)));
    expect(scheduled(new Date(here)) || shiftedGapTime).toBe(true);
    // Under both, a repeated local time's other instant runs too.
    if (overlap === 'both') {
      for (const other of [time - HOUR, time + HOUR]) if (other > start && other <= end && wall(other) === here) expect(times).toContain(other);
    }
  }
  expect(iso(times)).toEqual(iso(model(testCase, wall)));
}

/**
 * From any `now` in the window: the latest occurrence not after it is the last walked one, and the
 * first after it (also from nextOccurrence straight from `now`, as a cron action's first time is
 * found) the next walked one.
 */
function checkFromAnyInstant({ schedule, start, end }: Case, now: number): void {
  const times = walk(schedule, start, end);
  const latest = [start, ...times].filter((t) => t <= now).pop()!;
  expect(latestOccurrenceNotAfter(schedule, new Date(start), new Date(now)).toISOString()).toBe(new Date(latest).toISOString());
  const next = times.find((t) => t > now);
  if (!next) return;
  expect(firstOccurrenceAfter(schedule, new Date(start), new Date(now))!.toISOString()).toBe(new Date(next).toISOString());
  // From a bare instant, the other pass of `start`'s repeated local time is an occurrence; after `start` ran, under
  // `first` or `last`, it is not (that local time ran once that day), and the walk goes on to the one after it.
  const fromNow = nextOccurrence(schedule, new Date(now))!;
  const runsOnce = (schedule.dstPolicy ?? DEFAULT_DST_POLICY).overlap !== 'both';
  // `now` exactly on the pass of a repeated local time that the policy does not run: nextOccurrence takes it as that
  // time's run (an executionTime may name that pass), so the pass the walk runs is no occurrence from it.
  if (runsOnce && showSameWallTime(new Date(now), new Date(next), schedule.timezone)) {
    const afterNext = times.find((t) => t > next);
    if (afterNext) expect(fromNow.toISOString()).toBe(new Date(afterNext).toISOString());
    return;
  }
  const expected = runsOnce && showSameWallTime(new Date(start), fromNow, schedule.timezone) ? nextOccurrence(schedule, fromNow)! : fromNow;
  expect(expected.toISOString()).toBe(new Date(next).toISOString());
}

describe('DST policies, for random zones, wall-clock schedules, policies and starts around 2026–2028 changes', () => {
  it('cron: a walk of nextOccurrence is strictly increasing, on scheduled (or shifted gap) times, and runs exactly what a minute-by-minute model runs', () => {
    fc.assert(
      fc.property(cronExpression, around(CRON_HOURS), (expression, at) => checkWalk(cronCase(expression, at))),
      { numRuns: 150 },
    );
  });

  it('DAILY, WEEKLY, MONTHLY: the same', () => {
    fc.assert(
      fc.property(calendar, around(CALENDAR_HOURS), (schedule, at) => {
        const testCase = calendarCase(schedule, at);
        fc.pre(testCase !== null);
        checkWalk(testCase);
      }),
      { numRuns: 60 },
    );
  });

  it('from any instant within two hours of a change: latestOccurrenceNotAfter, firstOccurrenceAfter and nextOccurrence agree with the walk', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.tuple(cronExpression, around(CRON_HOURS)).map(([expression, at]) => cronCase(expression, at)),
          fc.tuple(calendar, around(CALENDAR_HOURS)).map(([schedule, at]) => calendarCase(schedule, at)),
        ),
        fc.integer({ min: -120, max: 120 }),
        fc.constantFrom(-1, 0, 1),
        (testCase, minutes, jitter) => {
          fc.pre(testCase !== null);
          const now = testCase.change + minutes * MINUTE + jitter;
          fc.pre(now >= testCase.start && now <= testCase.end);
          checkFromAnyInstant(testCase, now);
        },
      ),
      { numRuns: 200 },
    );
  });
});
