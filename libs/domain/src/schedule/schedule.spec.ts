import { Frequency } from '../action-vocabulary';
import { InvalidCronError } from './cron-expression';
import {
  Schedule,
  addMonthsClamped,
  firstCronTimeAtOrAfter,
  firstOccurrenceAfter,
  latestOccurrenceNotAfter,
  nextOccurrence,
  occurrencesFrom,
} from './schedule';
import { instantAt, wallTime } from './zoned-time';

const at = (iso: string) => new Date(iso);
const every = (frequency: Frequency, anchor: string, timezone = 'UTC'): Schedule => ({ frequency, cron: null, timezone, anchor: at(anchor) });
const cron = (expression: string, timezone = 'UTC'): Schedule => ({ frequency: null, cron: expression, timezone, anchor: at('2027-01-01T00:00:00Z') });
const times = (schedule: Schedule, first: string, count: number) => occurrencesFrom(schedule, at(first), count, () => true).map((d) => d.toISOString());

describe('schedules without a zone (UTC) step exactly as before', () => {
  it.each([
    [Frequency.TenMins, '2025-01-15T08:45:17.120Z'],
    [Frequency.Hourly, '2025-01-15T09:35:17.120Z'],
    [Frequency.Daily, '2025-01-16T08:35:17.120Z'],
    [Frequency.Weekly, '2025-01-22T08:35:17.120Z'],
    [Frequency.Monthly, '2025-02-15T08:35:17.120Z'],
  ])('%s steps from the scheduled time', (frequency, expected) => {
    expect(nextOccurrence(every(frequency, '2025-01-15T08:35:17.120Z'), at('2025-01-15T08:35:17.120Z'))!.toISOString()).toBe(expected);
  });

  it('MONTHLY from Jan 31 gives Feb 28, then Mar 31, Apr 30 (keeps the day when the month has it)', () => {
    expect(times(every(Frequency.Monthly, '2025-01-31T09:00:00Z'), '2025-01-31T09:00:00Z', 4)).toEqual([
      '2025-01-31T09:00:00.000Z',
      '2025-02-28T09:00:00.000Z',
      '2025-03-31T09:00:00.000Z',
      '2025-04-30T09:00:00.000Z',
    ]);
  });

  it('MONTHLY from Jan 31 of a leap year gives Feb 29; months cross the year end', () => {
    expect(nextOccurrence(every(Frequency.Monthly, '2028-01-31T00:00:00Z'), at('2028-01-31T00:00:00Z'))!.toISOString()).toBe('2028-02-29T00:00:00.000Z');
    expect(addMonthsClamped(at('2025-12-31T12:00:00.000Z'), 2).toISOString()).toBe('2026-02-28T12:00:00.000Z');
  });

  it('finds the latest occurrence not after now without walking every step, and the first after now', () => {
    const start = '2020-01-01T00:00:00.000Z';
    expect(latestOccurrenceNotAfter(every(Frequency.TenMins, start), at(start), at('2025-06-01T00:07:00Z')).toISOString()).toBe(
      '2025-06-01T00:00:00.000Z',
    );
    expect(latestOccurrenceNotAfter(every(Frequency.Daily, start), at(start), at('2020-01-03T00:00:00Z')).toISOString()).toBe('2020-01-03T00:00:00.000Z');
    const monthly = every(Frequency.Monthly, '2025-01-31T09:00:00Z');
    expect(latestOccurrenceNotAfter(monthly, monthly.anchor, at('2025-05-15T00:00:00Z')).toISOString()).toBe('2025-04-30T09:00:00.000Z');
    expect(
      firstOccurrenceAfter(every(Frequency.Hourly, '2025-01-01T00:00:00Z'), at('2025-01-01T00:00:00Z'), at('2025-01-01T05:30:00Z'))!.toISOString(),
    ).toBe('2025-01-01T06:00:00.000Z');
    expect(firstOccurrenceAfter(monthly, monthly.anchor, at('2025-03-31T09:00:00Z'))!.toISOString()).toBe('2025-04-30T09:00:00.000Z');
  });
});

describe('calendar frequencies keep the local wall-clock time in their zone', () => {
  it.each<[string, string, string, string[]]>([
    // 09:00 in Berlin is 08:00Z in winter and 07:00Z in summer (DST starts 2027-03-28).
    [
      'Europe/Berlin DAILY across spring forward',
      'Europe/Berlin',
      '2027-03-27T08:00:00Z',
      ['2027-03-27T08:00:00.000Z', '2027-03-28T07:00:00.000Z', '2027-03-29T07:00:00.000Z'],
    ],
    [
      'America/New_York DAILY across fall back (2027-11-07)',
      'America/New_York',
      '2027-11-06T13:00:00Z',
      ['2027-11-06T13:00:00.000Z', '2027-11-07T14:00:00.000Z', '2027-11-08T14:00:00.000Z'],
    ],
    [
      'Australia/Lord_Howe (a 30-minute shift, 2027-10-03)',
      'Australia/Lord_Howe',
      '2027-10-01T22:30:00Z',
      ['2027-10-01T22:30:00.000Z', '2027-10-02T22:00:00.000Z', '2027-10-03T22:00:00.000Z'],
    ],
    [
      'Asia/Kolkata (no DST, +05:30)',
      'Asia/Kolkata',
      '2027-03-27T03:30:00Z',
      ['2027-03-27T03:30:00.000Z', '2027-03-28T03:30:00.000Z', '2027-03-29T03:30:00.000Z'],
    ],
    [
      'Pacific/Apia skipped 2011-12-30: that day runs at the first instant after the gap',
      'Pacific/Apia',
      '2011-12-28T19:00:00Z',
      ['2011-12-28T19:00:00.000Z', '2011-12-29T19:00:00.000Z', '2011-12-30T10:00:00.000Z', '2011-12-30T19:00:00.000Z'],
    ],
  ])('%s', (_name, zone, first, expected) => {
    expect(times(every(Frequency.Daily, first, zone), first, expected.length)).toEqual(expected);
  });

  it('a local time inside the spring-forward gap runs once, at the first instant after the gap, then returns to its time', () => {
    // 02:30 does not exist in Berlin on 2027-03-28: it runs at 03:00 local (01:00Z).
    expect(times(every(Frequency.Daily, '2027-03-27T01:30:00Z', 'Europe/Berlin'), '2027-03-27T01:30:00Z', 3)).toEqual([
      '2027-03-27T01:30:00.000Z',
      '2027-03-28T01:00:00.000Z',
      '2027-03-29T00:30:00.000Z',
    ]);
  });

  it('a local time that happens twice runs once, at its first instant', () => {
    // 02:30 happens twice in Berlin on 2027-10-31 (00:30Z and 01:30Z).
    expect(times(every(Frequency.Daily, '2027-10-30T00:30:00Z', 'Europe/Berlin'), '2027-10-30T00:30:00Z', 3)).toEqual([
      '2027-10-30T00:30:00.000Z',
      '2027-10-31T00:30:00.000Z',
      '2027-11-01T01:30:00.000Z',
    ]);
  });

  it('WEEKLY and MONTHLY in a zone, MONTHLY from the 31st', () => {
    expect(times(every(Frequency.Weekly, '2027-03-22T08:00:00Z', 'Europe/Berlin'), '2027-03-22T08:00:00Z', 2)).toEqual([
      '2027-03-22T08:00:00.000Z',
      '2027-03-29T07:00:00.000Z',
    ]);
    // 00:00 on the 31st in New York: Feb has no 31st, so Feb 28; DST starts Mar 14 2027.
    expect(times(every(Frequency.Monthly, '2027-01-31T05:00:00Z', 'America/New_York'), '2027-01-31T05:00:00Z', 4)).toEqual([
      '2027-01-31T05:00:00.000Z',
      '2027-02-28T05:00:00.000Z',
      '2027-03-31T04:00:00.000Z',
      '2027-04-30T04:00:00.000Z',
    ]);
  });

  it('TEN_MINS and HOURLY stay fixed durations across a change', () => {
    expect(times(every(Frequency.Hourly, '2027-03-28T00:30:00Z', 'Europe/Berlin'), '2027-03-28T00:30:00Z', 3)).toEqual([
      '2027-03-28T00:30:00.000Z',
      '2027-03-28T01:30:00.000Z',
      '2027-03-28T02:30:00.000Z',
    ]);
  });
});

describe('cron in a zone', () => {
  it('"09:00 every weekday in Berlin" across spring forward', () => {
    expect(times(cron('0 9 * * MON-FRI', 'Europe/Berlin'), '2027-03-26T08:00:00Z', 3)).toEqual([
      '2027-03-26T08:00:00.000Z',
      '2027-03-29T07:00:00.000Z',
      '2027-03-30T07:00:00.000Z',
    ]);
  });

  it('6 fields: seconds first', () => {
    expect(times(cron('*/20 * * * * *'), '2027-01-01T00:00:00Z', 4)).toEqual([
      '2027-01-01T00:00:00.000Z',
      '2027-01-01T00:00:20.000Z',
      '2027-01-01T00:00:40.000Z',
      '2027-01-01T00:01:00.000Z',
    ]);
  });

  it('day-of-month OR day-of-week when both are restricted (classic cron)', () => {
    expect(times(cron('0 12 13 * FRI'), '2027-01-01T12:00:00Z', 3)).toEqual([
      '2027-01-01T12:00:00.000Z',
      '2027-01-08T12:00:00.000Z',
      '2027-01-13T12:00:00.000Z',
    ]);
  });

  it('names of months and weekdays, lists and ranges; leap days', () => {
    expect(times(cron('0 0 29 FEB *'), '2028-02-29T00:00:00Z', 2)).toEqual(['2028-02-29T00:00:00.000Z', '2032-02-29T00:00:00.000Z']);
    expect(times(cron('15 10 * JAN,JUL SUN'), '2027-01-03T10:15:00Z', 2)).toEqual(['2027-01-03T10:15:00.000Z', '2027-01-10T10:15:00.000Z']);
  });

  it('an every-15-minutes cron runs once over a gap and once over a repeated hour', () => {
    const gap = times(cron('*/15 * * * *', 'Europe/Berlin'), '2027-03-28T00:30:00Z', 4);
    expect(gap).toEqual(['2027-03-28T00:30:00.000Z', '2027-03-28T00:45:00.000Z', '2027-03-28T01:00:00.000Z', '2027-03-28T01:15:00.000Z']);
    const overlap = times(cron('*/30 * * * *', 'Europe/Berlin'), '2027-10-31T00:00:00Z', 4);
    expect(overlap).toEqual(['2027-10-31T00:00:00.000Z', '2027-10-31T00:30:00.000Z', '2027-10-31T02:00:00.000Z', '2027-10-31T02:30:00.000Z']);
  });

  it('the first occurrence is the first cron time at or after the given time', () => {
    expect(firstCronTimeAtOrAfter('0 9 * * *', 'Asia/Kolkata', at('2027-01-01T03:30:00Z'))!.toISOString()).toBe('2027-01-01T03:30:00.000Z');
    expect(firstCronTimeAtOrAfter('0 9 * * *', 'Asia/Kolkata', at('2027-01-01T03:30:01Z'))!.toISOString()).toBe('2027-01-02T03:30:00.000Z');
  });

  it('misfires: the latest cron time not after now, and the first after it', () => {
    const schedule = cron('0 * * * *', 'America/New_York');
    expect(latestOccurrenceNotAfter(schedule, at('2027-01-01T00:00:00Z'), at('2027-01-01T05:59:00Z')).toISOString()).toBe('2027-01-01T05:00:00.000Z');
    expect(firstOccurrenceAfter(schedule, at('2027-01-01T00:00:00Z'), at('2027-01-01T05:59:00Z'))!.toISOString()).toBe('2027-01-01T06:00:00.000Z');
  });

  it('refuses an expression it cannot run, saying why', () => {
    expect(() => nextOccurrence(cron('61 * * * *'), at('2027-01-01T00:00:00Z'))).toThrow(InvalidCronError);
    expect(() => nextOccurrence(cron('* * * * * * *'), at('2027-01-01T00:00:00Z'))).toThrow(/has 7 fields; Punctual reads 5 fields/);
  });
});

describe('zoned time', () => {
  it('resolves a gap to its end and a repeated time to its first instant', () => {
    expect(instantAt(at('2027-03-28T02:30:00Z'), 'Europe/Berlin').toISOString()).toBe('2027-03-28T01:00:00.000Z');
    expect(instantAt(at('2027-10-31T02:30:00Z'), 'Europe/Berlin').toISOString()).toBe('2027-10-31T00:30:00.000Z');
    expect(wallTime(at('2027-10-31T01:30:00Z'), 'Europe/Berlin').toISOString()).toBe('2027-10-31T02:30:00.000Z');
  });
});
