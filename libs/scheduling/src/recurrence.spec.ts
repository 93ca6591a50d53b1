import { Frequency } from '@app/database';
import { addMonthsClamped, firstOccurrenceAfter, latestOccurrenceNotAfter, nextOccurrence } from './recurrence';

const at = (iso: string) => new Date(iso);

describe('recurrence', () => {
  it.each([
    [Frequency.TenMins, '2025-01-15T08:45:17.120Z'],
    [Frequency.Hourly, '2025-01-15T09:35:17.120Z'],
    [Frequency.Daily, '2025-01-16T08:35:17.120Z'],
    [Frequency.Weekly, '2025-01-22T08:35:17.120Z'],
    [Frequency.Monthly, '2025-02-15T08:35:17.120Z'],
  ])('%s steps from the scheduled time', (frequency, expected) => {
    expect(nextOccurrence(at('2025-01-15T08:35:17.120Z'), frequency).toISOString()).toBe(expected);
  });

  it('MONTHLY from Jan 31 gives Feb 28, then Mar 31 (keeps the day when the month has it)', () => {
    const anchor = at('2025-01-31T09:00:00.000Z');
    const feb = nextOccurrence(anchor, Frequency.Monthly, anchor);
    const mar = nextOccurrence(feb, Frequency.Monthly, anchor);
    const apr = nextOccurrence(mar, Frequency.Monthly, anchor);
    expect([feb, mar, apr].map((d) => d.toISOString())).toEqual(['2025-02-28T09:00:00.000Z', '2025-03-31T09:00:00.000Z', '2025-04-30T09:00:00.000Z']);
  });

  it('MONTHLY from Jan 31 of a leap year gives Feb 29', () => {
    const anchor = at('2028-01-31T00:00:00.000Z');
    expect(nextOccurrence(anchor, Frequency.Monthly, anchor).toISOString()).toBe('2028-02-29T00:00:00.000Z');
  });

  it('MONTHLY crosses the year end', () => {
    expect(addMonthsClamped(at('2025-12-31T12:00:00.000Z'), 2).toISOString()).toBe('2026-02-28T12:00:00.000Z');
  });

  it('finds the latest occurrence not after now without walking every step', () => {
    const start = at('2020-01-01T00:00:00.000Z');
    expect(latestOccurrenceNotAfter(start, Frequency.TenMins, at('2025-06-01T00:07:00.000Z')).toISOString()).toBe('2025-06-01T00:00:00.000Z');
    expect(latestOccurrenceNotAfter(start, Frequency.Daily, at('2020-01-03T00:00:00.000Z')).toISOString()).toBe('2020-01-03T00:00:00.000Z');
    const anchor = at('2025-01-31T09:00:00.000Z');
    expect(latestOccurrenceNotAfter(anchor, Frequency.Monthly, at('2025-05-15T00:00:00.000Z'), anchor).toISOString()).toBe('2025-04-30T09:00:00.000Z');
  });

  it('finds the first occurrence strictly after now', () => {
    const start = at('2025-01-01T00:00:00.000Z');
    expect(firstOccurrenceAfter(start, Frequency.Hourly, at('2025-01-01T05:00:00.000Z')).toISOString()).toBe('2025-01-01T06:00:00.000Z');
    expect(firstOccurrenceAfter(start, Frequency.Hourly, at('2025-01-01T05:30:00.000Z')).toISOString()).toBe('2025-01-01T06:00:00.000Z');
    const anchor = at('2025-01-31T09:00:00.000Z');
    expect(firstOccurrenceAfter(anchor, Frequency.Monthly, at('2025-03-31T09:00:00.000Z'), anchor).toISOString()).toBe('2025-04-30T09:00:00.000Z');
  });
});
