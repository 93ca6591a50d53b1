import fc from 'fast-check';
import { CronExpression } from './cron-expression';
import { DST_GAP_RULES, DST_OVERLAP_RULES, DstPolicy } from './dst-policy';
import { shortestRepeatInterval } from './repeat-interval';
import { Schedule, firstCronTimeAtOrAfter, nextOccurrence } from './schedule';

const DAY = 86_400_000;

/** A small list of values, so that a walk over years stays short. */
const few = (min: number, max: number, most = 3) =>
  fc.uniqueArray(fc.integer({ min, max }), { minLength: 1, maxLength: most }).map((values) => values.sort((a, b) => a - b).join(','));
const days = fc.oneof(
  fc.constant('*'),
  few(1, 31),
  fc.tuple(fc.integer({ min: 1, max: 31 }), fc.integer({ min: 1, max: 31 })).map(([a, b]) => `${Math.min(a, b)}-${Math.max(a, b)}`),
);
const months = fc.oneof(fc.constant('*'), few(1, 12, 4), fc.constantFrom('FEB', 'JAN,FEB', 'NOV-DEC', '*/3'));
const weekdays = fc.oneof(fc.constant('*'), few(0, 6), fc.constantFrom('MON-FRI', 'SAT,SUN', 'SUN'));

/** The shortest gap between consecutive wall times of `cron` from `from` to `until`, walked match by match. */
function walkedWallGap(cron: CronExpression, from: number, until: number): number {
  let shortest = Infinity;
  let previous = cron.nextAfter(new Date(from - 1));
  while (previous && previous.getTime() < until) {
    const next = cron.nextAfter(previous);
    if (!next) break;
    shortest = Math.min(shortest, next.getTime() - previous.getTime());
    previous = next;
  }
  return shortest;
}

describe('the shortest gap judged from the fields, against a walk', () => {
  it('in UTC: never more than the walked gap over four years (a leap year among them), equal when the weekday is not restricted', () => {
    const expression = fc.tuple(few(0, 59, 2), few(0, 59, 2), few(0, 23, 2), days, months, weekdays).map((fields) => fields.join(' '));
    fc.assert(
      fc.property(expression, (cron) => {
        const parsed = new CronExpression(cron);
        const walked = walkedWallGap(parsed, Date.UTC(2027, 0, 1), Date.UTC(2031, 0, 1));
        fc.pre(walked !== Infinity);
        const judged = shortestRepeatInterval({ frequency: null, cron, timezone: 'UTC', anchor: new Date(0) });
        expect(judged).toBeLessThanOrEqual(walked);
        if (cron.endsWith(' *') && walked < 366 * DAY) expect(judged).toBe(walked);
      }),
      { numRuns: 30 },
    );
  });

  it('where clocks change: never more than the gap between the instants the scheduler runs at, around every change of two years', () => {
    const zones = {
      'Europe/Berlin': ['2027-03-28T01:00Z', '2027-10-31T01:00Z', '2028-03-26T01:00Z', '2028-10-29T01:00Z'],
      'America/New_York': ['2027-03-14T07:00Z', '2027-11-07T06:00Z', '2028-03-12T07:00Z', '2028-11-05T06:00Z'],
      'Australia/Lord_Howe': ['2027-04-03T15:00Z', '2027-10-02T15:30Z', '2028-04-01T15:00Z', '2028-09-30T15:30Z'],
    };
    const expression = fc.tuple(few(0, 59, 2), few(0, 59, 3), few(0, 4, 3), fc.constantFrom('*', '1-15', '25-31'), fc.constant('*'), weekdays);
    const policy = fc.record({ gap: fc.constantFrom(...DST_GAP_RULES), overlap: fc.constantFrom(...DST_OVERLAP_RULES) });
    fc.assert(
      fc.property(
        expression.map((fields) => fields.join(' ')),
        fc.constantFrom(...(Object.keys(zones) as (keyof typeof zones)[])),
        policy,
        (cron, zone, dstPolicy: DstPolicy) => {
          const schedule: Schedule = { frequency: null, cron, timezone: zone, anchor: new Date(0), dstPolicy };
          let walked = Infinity;
          for (const change of zones[zone].map((iso) => Date.parse(iso))) {
            let previous = firstCronTimeAtOrAfter(cron, zone, new Date(change - 2 * DAY), dstPolicy);
            while (previous && previous.getTime() < change + 2 * DAY) {
              const next = nextOccurrence(schedule, previous);
              if (!next) break;
              walked = Math.min(walked, next.getTime() - previous.getTime());
              previous = next;
            }
          }
          expect(shortestRepeatInterval(schedule)).toBeLessThanOrEqual(walked);
        },
      ),
      { numRuns: 60 },
    );
  });
});
