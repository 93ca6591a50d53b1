import { Frequency } from '../action-vocabulary';
import { shortestRepeatInterval } from './repeat-interval';
import { Schedule } from './schedule';

const cron = (expression: string): Schedule => ({ frequency: null, cron: expression, timezone: 'UTC', anchor: new Date(0) });
const every = (frequency: Frequency): Schedule => ({ frequency, cron: null, timezone: 'UTC', anchor: new Date(0) });

describe('the shortest time between two occurrences of a schedule', () => {
  it.each([
    ['* * * * * *', 1_000],
    ['*/15 * * * * *', 15_000],
    ['0,59 * * * * *', 1_000],
    ['0 * * * * *', 60_000],
    ['*/5 * * * *', 300_000],
    ['0,30 9 * * MON-FRI', 1_800_000],
    ['59 23 * * *', 86_400_000],
    ['0 0 * * * ', 86_400_000],
    ['59,0 23,0 * * *', 60_000],
    ['0 9 * * MON', 86_400_000],
  ])('cron %s: %d ms', (expression, gap) => {
    expect(shortestRepeatInterval(cron(expression))).toBe(gap);
  });

  it("is a frequency's step, a wall-clock one short of the hour a clock change skips", () => {
    expect(shortestRepeatInterval(every(Frequency.TenMins))).toBe(600_000);
    expect(shortestRepeatInterval(every(Frequency.Hourly))).toBe(3_600_000);
    expect(shortestRepeatInterval(every(Frequency.Daily))).toBe(23 * 3_600_000);
  });
});
