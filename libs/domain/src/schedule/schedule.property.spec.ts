import fc from 'fast-check';
import { CronExpression } from './cron-expression';
import { Schedule, occurrencesFrom } from './schedule';
import { wallTime } from './zoned-time';

const MINUTE = 60_000;
const WINDOW_MS = 86_400_000;
const ZONES = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata', 'Pacific/Apia', 'UTC'];
// Start times around 2027's transitions in these zones, where the rules bite.
const AROUND = [
  '2027-03-13T12:00:00Z',
  '2027-03-27T12:00:00Z',
  '2027-04-03T12:00:00Z',
  '2027-09-25T12:00:00Z',
  '2027-10-02T12:00:00Z',
  '2027-10-30T12:00:00Z',
  '2027-11-06T12:00:00Z',
].map((iso) => Date.parse(iso));

const field = (max: number, min = 0) =>
  fc.oneof(
    fc.constant('*'),
    fc.integer({ min, max }).map(String),
    fc.tuple(fc.integer({ min, max }), fc.integer({ min, max })).map(([a, b]) => `${Math.min(a, b)}-${Math.max(a, b)}`),
    fc.integer({ min: 2, max: Math.max(2, Math.floor(max / 2)) }).map((step) => `*/${step}`),
    fc.uniqueArray(fc.integer({ min, max }), { minLength: 2, maxLength: 4 }).map((values) => values.join(',')),
  );
const expression = fc
  .tuple(
    field(59),
    field(23),
    fc.oneof(fc.constant('*'), field(28, 1)),
    fc.constant('*'),
    fc.oneof(fc.constant('*'), fc.constantFrom('MON-FRI', 'SAT,SUN', '1-3')),
  )
  .map((fields) => fields.join(' '));

/**
 * An independent model of the rules, minute by minute in real time: a minute whose local time
 * matches runs, unless that local time was already seen (the second pass of a repeated hour);
 * matching local times skipped by a gap run once, at the first instant after it. A local time
 * whose first pass came in the two hours before `from` counts as seen: it had its instant.
 */
function bruteForce(cron: CronExpression, zone: string, from: number, to: number): number[] {
  const runs: number[] = [];
  const seen = new Set<number>();
  for (let t = from - 2 * 60 * MINUTE; t < from; t += MINUTE) seen.add(wallTime(new Date(t), zone).getTime());
  let previousWall = wallTime(new Date(from - MINUTE), zone).getTime();
  for (let t = from; t <= to; t += MINUTE) {
    const wall = wallTime(new Date(t), zone).getTime();
    let skippedMatch = false;
    for (let missing = previousWall + MINUTE; missing < wall; missing += MINUTE) skippedMatch ||= cron.matches(new Date(missing));
    if ((skippedMatch || cron.matches(new Date(wall))) && !seen.has(wall)) runs.push(t);
    seen.add(wall);
    previousWall = Math.max(previousWall, wall);
  }
  return runs;
}

describe('cron schedules, for random expressions, zones and start times', () => {
  it('are strictly increasing, match the expression in their zone, and skip nothing a minute-by-minute scan finds', () => {
    fc.assert(
      fc.property(
        expression,
        fc.constantFrom(...ZONES),
        fc.constantFrom(...AROUND),
        fc.integer({ min: 0, max: 86_400_000 / MINUTE }),
        (cron, zone, base, offsetMinutes) => {
          const from = base + offsetMinutes * MINUTE;
          const schedule: Schedule = { frequency: null, cron, timezone: zone, anchor: new Date(from) };
          const expected = bruteForce(new CronExpression(cron), zone, from, from + WINDOW_MS);
          if (expected.length === 0) return;
          const actual = occurrencesFrom(schedule, new Date(expected[0]), 5000, (time) => time.getTime() <= from + WINDOW_MS).map((d) => d.getTime());
          for (let i = 1; i < actual.length; i += 1) expect(actual[i]).toBeGreaterThan(actual[i - 1]);
          expect(actual.map((t) => new Date(t).toISOString())).toEqual(expected.map((t) => new Date(t).toISOString()));
        },
      ),
      { numRuns: 25 },
    );
  });
});
