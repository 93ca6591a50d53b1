import { Frequency } from '../action-vocabulary';
import { CronExpression } from './cron-expression';
import { DEFAULT_DST_POLICY, DstPolicy } from './dst-policy';
import { shortestRepeatInterval } from './repeat-interval';
import { Schedule, firstCronTimeAtOrAfter } from './schedule';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const cron = (expression: string, timezone = 'UTC', dstPolicy: DstPolicy = DEFAULT_DST_POLICY): Schedule => ({
  frequency: null,
  cron: expression,
  timezone,
  anchor: new Date(0),
  dstPolicy,
});
const every = (frequency: Frequency, timezone = 'UTC', anchor = '2027-01-04T09:00:00Z', dstPolicy: DstPolicy = DEFAULT_DST_POLICY): Schedule => ({
  frequency,
  cron: null,
  timezone,
  anchor: new Date(anchor),
  dstPolicy,
});
const gap = (schedule: Schedule) => shortestRepeatInterval(schedule);

describe('the shortest time between two occurrences of a schedule', () => {
  it.each([
    ['* * * * * *', SECOND],
    ['*/15 * * * * *', 15 * SECOND],
    ['0,59 * * * * *', SECOND],
    ['0 * * * * *', MINUTE],
    ['*/5 * * * *', 5 * MINUTE],
    ['0,30 9 * * MON-FRI', 30 * MINUTE],
    ['59 23 * * *', DAY],
    ['0 0 * * * ', DAY],
    ['59,0 23,0 * * *', MINUTE],
    ['0 9 * * MON', 7 * DAY],
    ['0 9 * * MON,THU', 3 * DAY],
    ['0 0 31 * *', 31 * DAY],
    ['0 0 1 1,2 *', 31 * DAY],
    ['0 0 28-31 2 *', DAY],
    ['0 0 1 * SUN', DAY],
    ['0 0 1 * +SUN', 28 * DAY],
    ['0 0 1,15 JAN,JUL *', 14 * DAY],
    ['0 0 1,31 1,2 *', DAY],
  ])('cron %s in UTC: %d ms, from its fields', (expression, ms) => {
    expect(gap(cron(expression))).toBe(ms);
  });

  it.each([
    // Every second on Sundays, on the 15th, in February: dates a two-day sample misses.
    ['* * * * * SUN'],
    ['* * * 15 * *'],
    ['* * * * FEB *'],
    ['* * * 29 2 *'],
  ])('finds cron %s running every second, whatever the dates it runs on', (expression) => {
    expect(gap(cron(expression))).toBe(SECOND);
  });

  it('crosses from the last time of a day to the first of the next day it runs on: months of 31 days, the turn of the year', () => {
    expect(gap(cron('59 59 23 31 * *'))).toBe(31 * DAY);
    expect(gap(cron('59 59 23 31 12 *'))).toBe(365 * DAY);
    // 23:59:59 on 31 December, then 00:00:00 on 1 January.
    expect(gap(cron('0,59 0,59 0,23 1,31 1,12 *'))).toBe(SECOND);
    expect(gap(cron('0 0 0 29 2 *'))).toBe(366 * DAY);
  });

  it('takes the hour a clock change skips off a gap that spans it', () => {
    expect(gap(cron('0 9 * * *', 'Europe/Berlin'))).toBe(23 * HOUR);
    expect(gap(cron('0 9 * * MON', 'Europe/Berlin'))).toBe(7 * DAY - HOUR);
    // 01:59 and 03:00 on the day 02:00 becomes 03:00: a minute apart.
    expect(gap(cron('0 0,59 1,3 * * *', 'Europe/Berlin'))).toBe(MINUTE);
    expect(gap(cron('0 0,59 1,3 * * *', 'UTC'))).toBe(59 * MINUTE);
  });

  it('keeps the gaps of a schedule whose times a change does not bring closer', () => {
    expect(gap(cron('*/5 * * * *', 'Europe/Berlin'))).toBe(5 * MINUTE);
    expect(gap(cron('0 * * * *', 'America/New_York', { gap: 'skip', overlap: 'both' }))).toBe(HOUR);
    expect(gap(cron('0 12 * * *', 'Asia/Tokyo'))).toBe(DAY);
  });

  it('counts the times a shift moves to the jump and a repeated hour run twice', () => {
    // Lord Howe jumps from 02:00 to 02:30: the shifted 02:00 is half an hour from 03:00.
    expect(gap(cron('0 * * * *', 'Australia/Lord_Howe'))).toBe(30 * MINUTE);
    expect(gap(cron('0 * * * *', 'Australia/Lord_Howe', { gap: 'skip', overlap: 'first' }))).toBe(HOUR);
    expect(gap(cron('30 2 * * *', 'Europe/Berlin', { gap: 'shift', overlap: 'both' }))).toBe(HOUR);
    expect(gap(cron('30 2 * * *', 'Europe/Berlin', { gap: 'shift', overlap: 'last' }))).toBe(23.5 * HOUR);
    // 02:00 and 02:59 on both passes of Berlin's repeated hour: 02:59 then 02:00 again, a minute on.
    expect(gap(cron('0,59 2 * * *', 'Europe/Berlin', { gap: 'shift', overlap: 'both' }))).toBe(MINUTE);
  });

  it("is a frequency's step: a fixed one, or a wall-clock one less what a clock change takes", () => {
    expect(gap(every(Frequency.TenMins, 'Europe/Berlin'))).toBe(10 * MINUTE);
    expect(gap(every(Frequency.Hourly, 'Europe/Berlin'))).toBe(HOUR);
    expect(gap(every(Frequency.Daily))).toBe(DAY);
    expect(gap(every(Frequency.Daily, 'Europe/Berlin'))).toBe(23 * HOUR);
    expect(gap(every(Frequency.Weekly))).toBe(7 * DAY);
    expect(gap(every(Frequency.Monthly))).toBe(28 * DAY);
    // 02:30 in Berlin (00:30Z in winter) twice on the day the clocks go back.
    expect(gap(every(Frequency.Daily, 'Europe/Berlin', '2027-01-04T01:30:00Z', { gap: 'shift', overlap: 'both' }))).toBe(HOUR);
  });

  it('judges a batch of a thousand distinct dense expressions in well under a second', () => {
    const started = process.hrtime.bigint();
    for (let i = 0; i < 1000; i += 1) gap(cron(`0,${(i % 59) + 1} ${i % 60} ${Math.floor(i / 60)} * * *`, 'Europe/Berlin'));
    // Generous for a loaded machine: walking each of them took about 87 ms.
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(5000);
  });
});

describe('a cron expression that runs on no day', () => {
  it('is known from its fields at once, without a search through the centuries', () => {
    const search = jest.spyOn(CronExpression.prototype, 'nextAfter');
    expect(firstCronTimeAtOrAfter('0 0 31 2 *', 'UTC', new Date('2027-01-01T00:00:00Z'))).toBeNull();
    expect(firstCronTimeAtOrAfter('0 0 30 2 +MON', 'Europe/Berlin', new Date('2027-01-01T00:00:00Z'))).toBeNull();
    expect(search).not.toHaveBeenCalled();
    search.mockRestore();
  });
});

describe('the cron forms beyond plain fields: shorthands, L, W and #', () => {
  it.each([
    ['@hourly', HOUR],
    ['@daily', DAY],
    ['@weekly', 7 * DAY],
    ['@monthly', 28 * DAY],
    // Which days L, W and # name depends on the month: a day apart is the bound that never overstates the gap.
    ['0 0 L * *', DAY],
    ['0 9 * * 5#2', DAY],
    ['*/10 * 15W * *', 10 * MINUTE],
  ])('cron %s: at least %d ms apart', (expression, ms) => {
    expect(gap(cron(expression))).toBe(ms);
  });

  it.each([
    ['@daily', '2027-01-01T10:00:00Z', '2027-01-02T00:00:00.000Z'],
    ['0 0 L * *', '2027-02-01T00:00:00Z', '2027-02-28T00:00:00.000Z'],
    ['0 0 LW * *', '2027-07-01T00:00:00Z', '2027-07-30T00:00:00.000Z'],
    ['0 9 * * 5#2', '2027-02-01T00:00:00Z', '2027-02-12T09:00:00.000Z'],
    ['0 9 * * FRIL', '2027-02-01T00:00:00Z', '2027-02-26T09:00:00.000Z'],
    ['0 0 15W * *', '2027-05-01T00:00:00Z', '2027-05-14T00:00:00.000Z'],
  ])('cron %s from %s runs first at %s', (expression, from, first) => {
    expect(firstCronTimeAtOrAfter(expression, 'UTC', new Date(from))?.toISOString()).toBe(first);
  });
});
