import { Frequency } from '../action-vocabulary';
import { DEFAULT_DST_POLICY, DST_GAP_RULES, DST_OVERLAP_RULES, DstPolicy } from './dst-policy';
import { Schedule, firstCronTimeAtOrAfter, firstOccurrenceAfter, latestOccurrenceNotAfter, nextOccurrence, occurrencesFrom } from './schedule';

const at = (iso: string) => new Date(iso);
const daily =
  (anchor: string, timezone: string) =>
  (dstPolicy: DstPolicy): Schedule => ({ frequency: Frequency.Daily, cron: null, timezone, anchor: at(anchor), dstPolicy });
const cron =
  (expression: string, timezone: string) =>
  (dstPolicy: DstPolicy): Schedule => ({ frequency: null, cron: expression, timezone, anchor: at('2027-01-01T00:00:00Z'), dstPolicy });
const until = (schedule: Schedule, first: Date, last: Date) =>
  occurrencesFrom(schedule, first, 100, (time) => time <= last).map((time) => time.toISOString());
const rows = (table: string) =>
  table
    .split('\n')
    .slice(2)
    .filter((line) => line.trim())
    .map((line) => line.split('|').map((cell) => cell.trim()));

/**
 * The 2027 changes. Berlin: Sun 28 March 02:00 → 03:00 (01:00Z), Sun 31 October 03:00 → 02:00
 * (01:00Z). New York: 14 March 02:00 → 03:00 (07:00Z), 7 November 02:00 → 01:00 (06:00Z). A
 * DAILY schedule is anchored at `from`; a cron one starts at its first time at or after `from`.
 */
const SCHEDULES = `
  name                 | zone             | frequency or cron | from              | until
  berlin-daily-spring  | Europe/Berlin    | DAILY             | 2027-03-27T01:30Z | 2027-03-29T12:00Z
  ny-0230-spring       | America/New_York | DAILY             | 2027-03-13T07:30Z | 2027-03-15T12:00Z
  ny-0130-spring       | America/New_York | DAILY             | 2027-03-13T06:30Z | 2027-03-15T12:00Z
  berlin-cron-spring   | Europe/Berlin    | */30 1-3 * * *    | 2027-03-28T00:00Z | 2027-03-28T01:30Z
  ny-cron-spring       | America/New_York | 30 1-3 * * *      | 2027-03-14T06:30Z | 2027-03-15T07:30Z
  berlin-daily-fall    | Europe/Berlin    | DAILY             | 2027-10-30T00:30Z | 2027-11-01T12:00Z
  ny-0130-fall         | America/New_York | DAILY             | 2027-11-06T05:30Z | 2027-11-08T12:00Z
  ny-0230-fall         | America/New_York | DAILY             | 2027-11-06T06:30Z | 2027-11-08T12:00Z
  berlin-cron-fall     | Europe/Berlin    | */30 1-3 * * *    | 2027-10-30T23:00Z | 2027-10-31T02:30Z
  ny-cron-fall         | America/New_York | 30 1-3 * * *      | 2027-11-07T05:30Z | 2027-11-07T08:30Z
`;

/**
 * Every run in each window, under the rule for the change it spans (the other rule has no say).
 * Listed independently, by scanning every minute around each change with Intl.DateTimeFormat.
 * Spring: 02:30 does not exist; Berlin's cron meets 03:00 at the gap's end, so shifted times join
 * it once. Fall: 02:30 Berlin is 00:30Z and 01:30Z, 01:30 New York 05:30Z and 06:30Z; in instant
 * order the second 02:00 Berlin (01:00Z) comes after the first 02:30 (00:30Z).
 */
const RUNS = `
  schedule             | rule  | runs
  berlin-daily-spring  | shift | 2027-03-27T01:30Z 2027-03-28T01:00Z 2027-03-29T00:30Z
  berlin-daily-spring  | skip  | 2027-03-27T01:30Z 2027-03-29T00:30Z
  ny-0230-spring       | shift | 2027-03-13T07:30Z 2027-03-14T07:00Z 2027-03-15T06:30Z
  ny-0230-spring       | skip  | 2027-03-13T07:30Z 2027-03-15T06:30Z
  ny-0130-spring       | shift | 2027-03-13T06:30Z 2027-03-14T06:30Z 2027-03-15T05:30Z
  ny-0130-spring       | skip  | 2027-03-13T06:30Z 2027-03-14T06:30Z 2027-03-15T05:30Z
  berlin-cron-spring   | shift | 2027-03-28T00:00Z 2027-03-28T00:30Z 2027-03-28T01:00Z 2027-03-28T01:30Z
  berlin-cron-spring   | skip  | 2027-03-28T00:00Z 2027-03-28T00:30Z 2027-03-28T01:00Z 2027-03-28T01:30Z
  ny-cron-spring       | shift | 2027-03-14T06:30Z 2027-03-14T07:00Z 2027-03-14T07:30Z 2027-03-15T05:30Z 2027-03-15T06:30Z 2027-03-15T07:30Z
  ny-cron-spring       | skip  | 2027-03-14T06:30Z 2027-03-14T07:30Z 2027-03-15T05:30Z 2027-03-15T06:30Z 2027-03-15T07:30Z
  berlin-daily-fall    | first | 2027-10-30T00:30Z 2027-10-31T00:30Z 2027-11-01T01:30Z
  berlin-daily-fall    | last  | 2027-10-30T00:30Z 2027-10-31T01:30Z 2027-11-01T01:30Z
  berlin-daily-fall    | both  | 2027-10-30T00:30Z 2027-10-31T00:30Z 2027-10-31T01:30Z 2027-11-01T01:30Z
  ny-0130-fall         | first | 2027-11-06T05:30Z 2027-11-07T05:30Z 2027-11-08T06:30Z
  ny-0130-fall         | last  | 2027-11-06T05:30Z 2027-11-07T06:30Z 2027-11-08T06:30Z
  ny-0130-fall         | both  | 2027-11-06T05:30Z 2027-11-07T05:30Z 2027-11-07T06:30Z 2027-11-08T06:30Z
  ny-0230-fall         | first | 2027-11-06T06:30Z 2027-11-07T07:30Z 2027-11-08T07:30Z
  ny-0230-fall         | last  | 2027-11-06T06:30Z 2027-11-07T07:30Z 2027-11-08T07:30Z
  ny-0230-fall         | both  | 2027-11-06T06:30Z 2027-11-07T07:30Z 2027-11-08T07:30Z
  berlin-cron-fall     | first | 2027-10-30T23:00Z 2027-10-30T23:30Z 2027-10-31T00:00Z 2027-10-31T00:30Z 2027-10-31T02:00Z 2027-10-31T02:30Z
  berlin-cron-fall     | last  | 2027-10-30T23:00Z 2027-10-30T23:30Z 2027-10-31T01:00Z 2027-10-31T01:30Z 2027-10-31T02:00Z 2027-10-31T02:30Z
  berlin-cron-fall     | both  | 2027-10-30T23:00Z 2027-10-30T23:30Z 2027-10-31T00:00Z 2027-10-31T00:30Z 2027-10-31T01:00Z 2027-10-31T01:30Z
                       |       | 2027-10-31T02:00Z 2027-10-31T02:30Z
  ny-cron-fall         | first | 2027-11-07T05:30Z 2027-11-07T07:30Z 2027-11-07T08:30Z
  ny-cron-fall         | last  | 2027-11-07T06:30Z 2027-11-07T07:30Z 2027-11-07T08:30Z
  ny-cron-fall         | both  | 2027-11-07T05:30Z 2027-11-07T06:30Z 2027-11-07T07:30Z 2027-11-07T08:30Z
`;

interface Window {
  readonly name: string;
  readonly build: (policy: DstPolicy) => Schedule;
  readonly from: Date;
  readonly until: Date;
}
const WINDOWS: Window[] = rows(SCHEDULES).map(([name, zone, recurrence, from, until]) => ({
  name,
  build: recurrence === 'DAILY' ? daily(from, zone) : cron(recurrence, zone),
  from: at(from),
  until: at(until),
}));

/** RUNS as [schedule, rule, instants]; a line with no schedule continues the one above. */
const LISTED = rows(RUNS).reduce<[string, string, string[]][]>((listed, [schedule, rule, instants]) => {
  if (schedule) listed.push([schedule, rule, []]);
  listed[listed.length - 1][2].push(...instants.split(' '));
  return listed;
}, []);

/** The runs listed for a window under the rule of `policy` for the change it spans. */
function listedRuns(window: string, policy: DstPolicy): string[] {
  const matching = LISTED.filter(([name, rule]) => name === window && (rule === policy.gap || rule === policy.overlap));
  expect(matching).toHaveLength(1);
  return matching[0][2].map((instant) => at(instant).toISOString());
}

const POLICIES: DstPolicy[] = DST_GAP_RULES.flatMap((gap) => DST_OVERLAP_RULES.map((overlap) => ({ gap, overlap })));

describe.each(POLICIES)('DST policy gap=$gap overlap=$overlap', (policy) => {
  /** A DAILY action starts at its anchor, a cron one at its first time at or after `from`. */
  const walk = ({ build, from, until: last }: Window) => {
    const schedule = build(policy);
    const first = schedule.cron ? firstCronTimeAtOrAfter(schedule.cron, schedule.timezone, from, policy)! : from;
    return { schedule, times: until(schedule, first, last) };
  };

  it.each(WINDOWS)('$name: runs exactly the listed instants', (window) => {
    expect(walk(window).times).toEqual(listedRuns(window.name, policy));
  });

  it.each(WINDOWS)(
    '$name: the latest occurrence not after each run is itself, the one before it just before, and the first after it the next',
    (window) => {
      const { schedule, times } = walk(window);
      const origin = at('2027-01-01T00:00:00Z');
      times.forEach((time, index) => {
        expect(latestOccurrenceNotAfter(schedule, origin, at(time)).toISOString()).toBe(time);
        if (index > 0) expect(latestOccurrenceNotAfter(schedule, origin, new Date(at(time).getTime() - 1)).toISOString()).toBe(times[index - 1]);
        if (index + 1 < times.length) expect(firstOccurrenceAfter(schedule, origin, at(time))!.toISOString()).toBe(times[index + 1]);
      });
    },
  );
});

describe('DST policy corner cases', () => {
  const berlin = daily('2027-10-30T00:30:00Z', 'Europe/Berlin');

  it('without a policy a schedule keeps the default: a gap time shifted, a repeated time at its first instant', () => {
    const withoutPolicy: Schedule = { frequency: Frequency.Daily, cron: null, timezone: 'Europe/Berlin', anchor: at('2027-10-30T00:30:00Z') };
    expect(nextOccurrence(withoutPolicy, at('2027-10-30T00:30:00Z'))!.toISOString()).toBe('2027-10-31T00:30:00.000Z');
    expect(nextOccurrence({ ...withoutPolicy, anchor: at('2027-03-27T01:30:00Z') }, at('2027-03-27T01:30:00Z'))!.toISOString()).toBe(
      '2027-03-28T01:00:00.000Z',
    );
    expect(DEFAULT_DST_POLICY).toEqual({ gap: 'shift', overlap: 'first' });
  });

  it('under both, the next occurrence from the first instant of a repeated time is its second instant', () => {
    const schedule = berlin({ gap: 'shift', overlap: 'both' });
    expect(nextOccurrence(schedule, at('2027-10-31T00:30:00Z'))!.toISOString()).toBe('2027-10-31T01:30:00.000Z');
    expect(nextOccurrence(schedule, at('2027-10-31T01:00:00Z'))!.toISOString()).toBe('2027-10-31T01:30:00.000Z');
    expect(nextOccurrence(schedule, at('2027-10-31T01:30:00Z'))!.toISOString()).toBe('2027-11-01T01:30:00.000Z');
  });

  it('misfires under both: the latest occurrence is whichever instant of the repeated time has passed', () => {
    const schedule = berlin({ gap: 'shift', overlap: 'both' });
    const current = at('2027-10-30T00:30:00Z');
    expect(latestOccurrenceNotAfter(schedule, current, at('2027-10-31T01:29:59Z')).toISOString()).toBe('2027-10-31T00:30:00.000Z');
    expect(latestOccurrenceNotAfter(schedule, current, at('2027-10-31T01:30:00Z')).toISOString()).toBe('2027-10-31T01:30:00.000Z');
    expect(firstOccurrenceAfter(schedule, current, at('2027-10-31T00:45:00Z'))!.toISOString()).toBe('2027-10-31T01:30:00.000Z');
  });

  it('under last, the repeated time has not run yet during its first pass', () => {
    const schedule = berlin({ gap: 'shift', overlap: 'last' });
    expect(latestOccurrenceNotAfter(schedule, at('2027-10-30T00:30:00Z'), at('2027-10-31T01:00:00Z')).toISOString()).toBe('2027-10-30T00:30:00.000Z');
    expect(firstOccurrenceAfter(schedule, at('2027-10-30T00:30:00Z'), at('2027-10-31T00:30:00Z'))!.toISOString()).toBe('2027-10-31T01:30:00.000Z');
  });

  it('under first or last, a run at the pass the policy would not choose (an executionTime names it) is that time run once', () => {
    const firstPass = daily('2027-10-31T00:30:00Z', 'Europe/Berlin');
    expect(nextOccurrence(firstPass({ gap: 'shift', overlap: 'last' }), at('2027-10-31T00:30:00Z'))!.toISOString()).toBe('2027-11-01T01:30:00.000Z');
    const secondPass = daily('2027-10-31T01:30:00Z', 'Europe/Berlin');
    expect(nextOccurrence(secondPass({ gap: 'shift', overlap: 'first' }), at('2027-10-31T01:30:00Z'))!.toISOString()).toBe('2027-11-01T01:30:00.000Z');
    // Only that time's other pass is left out: the next times of the repeated hour still run at the policy's pass.
    const halfHourly = cron('*/30 2 * * *', 'Europe/Berlin')({ gap: 'shift', overlap: 'last' });
    expect(until(halfHourly, at('2027-10-31T00:00:00Z'), at('2027-10-31T02:00:00Z'))).toEqual(['2027-10-31T00:00:00.000Z', '2027-10-31T01:30:00.000Z']);
    // A misfire after such a run agrees: the other pass is no occurrence to catch up on, and the next is the day after.
    const ranFirstPass = firstPass({ gap: 'shift', overlap: 'last' });
    expect(latestOccurrenceNotAfter(ranFirstPass, at('2027-10-31T00:30:00Z'), at('2027-10-31T01:45:00Z')).toISOString()).toBe('2027-10-31T00:30:00.000Z');
    expect(firstOccurrenceAfter(ranFirstPass, at('2027-10-31T00:30:00Z'), at('2027-10-31T01:45:00Z'))!.toISOString()).toBe('2027-11-01T01:30:00.000Z');
    // With another occurrence between the two passes, the other pass is an occurrence again, as the walk has it.
    expect(latestOccurrenceNotAfter(halfHourly, at('2027-10-31T00:00:00Z'), at('2027-10-31T01:45:00Z')).toISOString()).toBe('2027-10-31T01:30:00.000Z');
  });

  it('from an arbitrary instant inside the repeated hour, each pass runs as the policy says', () => {
    // Berlin 2027-10-31: 02:00–03:00 local is shown from 00:00Z to 01:00Z, then again to 02:00Z.
    const quarterHourly = (overlap: DstPolicy['overlap']): Schedule => cron('*/15 * * * *', 'Europe/Berlin')({ gap: 'shift', overlap });
    const origin = at('2027-10-30T00:00:00Z');
    const first = (overlap: DstPolicy['overlap'], from: string) =>
      firstCronTimeAtOrAfter('*/15 * * * *', 'Europe/Berlin', at(from), { gap: 'shift', overlap })!.toISOString();
    const latest = (overlap: DstPolicy['overlap'], now: string) => latestOccurrenceNotAfter(quarterHourly(overlap), origin, at(now)).toISOString();
    // 01:10Z is 02:10 in the second pass: under first, 02:15 already ran (00:15Z), so 03:00 (02:00Z) is next.
    expect(first('first', '2027-10-31T01:10:00Z')).toBe('2027-10-31T02:00:00.000Z');
    expect(first('last', '2027-10-31T01:10:00Z')).toBe('2027-10-31T01:15:00.000Z');
    expect(first('both', '2027-10-31T01:10:00Z')).toBe('2027-10-31T01:15:00.000Z');
    // 00:40Z is 02:40 in the first pass: under last, nothing has run since 01:45 (23:45Z).
    expect(latest('last', '2027-10-31T00:40:00Z')).toBe('2027-10-30T23:45:00.000Z');
    expect(latest('first', '2027-10-31T00:40:00Z')).toBe('2027-10-31T00:30:00.000Z');
    expect(latest('both', '2027-10-31T00:40:00Z')).toBe('2027-10-31T00:30:00.000Z');
  });

  it('a skipped gap day has no occurrence: DAILY, WEEKLY and MONTHLY go on to their next step', () => {
    const skip: DstPolicy = { gap: 'skip', overlap: 'first' };
    const every = (frequency: Frequency, anchor: string): Schedule => ({
      frequency,
      cron: null,
      timezone: 'Europe/Berlin',
      anchor: at(anchor),
      dstPolicy: skip,
    });
    // 02:30 Berlin on the 28th of each month / on Sundays: 2027-03-28 has no 02:30.
    expect(nextOccurrence(every(Frequency.Monthly, '2027-02-28T01:30:00Z'), at('2027-02-28T01:30:00Z'))!.toISOString()).toBe('2027-04-28T00:30:00.000Z');
    expect(nextOccurrence(every(Frequency.Weekly, '2027-03-21T01:30:00Z'), at('2027-03-21T01:30:00Z'))!.toISOString()).toBe('2027-04-04T00:30:00.000Z');
    expect(
      latestOccurrenceNotAfter(every(Frequency.Daily, '2027-03-27T01:30:00Z'), at('2027-03-27T01:30:00Z'), at('2027-03-28T12:00:00Z')).toISOString(),
    ).toBe('2027-03-27T01:30:00.000Z');
  });

  it('the first cron time honours the policy it is given, and the default without one', () => {
    expect(firstCronTimeAtOrAfter('30 2 * * *', 'Europe/Berlin', at('2027-03-28T00:00:00Z'))!.toISOString()).toBe('2027-03-28T01:00:00.000Z');
    expect(firstCronTimeAtOrAfter('30 2 * * *', 'Europe/Berlin', at('2027-03-28T00:00:00Z'), { gap: 'skip', overlap: 'first' })!.toISOString()).toBe(
      '2027-03-29T00:30:00.000Z',
    );
    expect(firstCronTimeAtOrAfter('30 2 * * *', 'Europe/Berlin', at('2027-10-31T00:00:00Z'), { gap: 'shift', overlap: 'last' })!.toISOString()).toBe(
      '2027-10-31T01:30:00.000Z',
    );
  });

  it('TEN_MINS and HOURLY ignore the policy', () => {
    const hourly: Schedule = {
      frequency: Frequency.Hourly,
      cron: null,
      timezone: 'Europe/Berlin',
      anchor: at('2027-03-28T00:30:00Z'),
      dstPolicy: { gap: 'skip', overlap: 'both' },
    };
    expect(until(hourly, at('2027-03-28T00:30:00Z'), at('2027-03-28T02:30:00Z'))).toEqual([
      '2027-03-28T00:30:00.000Z',
      '2027-03-28T01:30:00.000Z',
      '2027-03-28T02:30:00.000Z',
    ]);
  });
});
