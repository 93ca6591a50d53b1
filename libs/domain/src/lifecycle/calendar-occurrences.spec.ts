import fc from 'fast-check';
import { ActionStatus, Frequency, MisfirePolicy } from '../action-vocabulary';
import { isCalendarDay, isCalendarName, localDay } from '../schedule/calendar';
import { ActionState } from './action-state';
import { transition } from './lifecycle';
import { catchUp } from './lifecycle.cases';
import { newActionState } from './new-action-state';
import { skipEntriesOf } from './skips';
import { MAX_LISTING_STEPS, upcomingOccurrences } from './upcoming-occurrences';

const START = Date.parse('2027-03-20T00:00:00.000Z');
const DAY = 86_400_000;

describe('calendar names and dates', () => {
  it('accepts 1–64 characters of letters, digits, _ and -', () => {
    expect(['a', 'de-holidays_2027', 'x'.repeat(64)].every(isCalendarName)).toBe(true);
    expect(['', 'x'.repeat(65), 'a b', 'ä', '../x', 'a/b', 7, null].some(isCalendarName)).toBe(false);
  });

  it('accepts only days that exist, written YYYY-MM-DD', () => {
    expect(['2027-12-25', '2028-02-29', '1999-01-01'].every(isCalendarDay)).toBe(true);
    expect(['2027-02-30', '2027-02-29', '2027-13-01', '2027-1-1', '27-01-01', '0999-01-01', '2027-12-25T00:00:00Z', 20271225].some(isCalendarDay)).toBe(
      false,
    );
  });

  it("reads an occurrence's date in its action's zone", () => {
    const lateEvening = new Date('2027-12-24T23:30:00.000Z');
    expect(localDay(lateEvening, 'UTC')).toBe('2027-12-24');
    expect(localDay(lateEvening, 'Europe/Berlin')).toBe('2027-12-25');
    expect(localDay(lateEvening, 'America/New_York')).toBe('2027-12-24');
  });
});

/** A repeating action due from START, its occurrences checked against `dates`. */
function repeating(schedule: { frequency: Frequency | null; cron: string | null }, timezone: string, runs: number): ActionState {
  return newActionState(
    {
      executionTime: new Date(START + 9 * 3_600_000),
      data: {},
      metadata: {},
      repeat: true,
      ...schedule,
      timezone,
      executionRemainder: schedule.frequency ? runs : null,
      endAt: null,
      misfirePolicy: MisfirePolicy.RunOnce,
      retryPolicy: null,
      callbackUrl: null,
      jitterMs: null,
      dstPolicy: null,
      calendar: 'holidays',
    },
    'creator',
    new Date(START),
    1,
  ).state;
}

/** What the worker does at each due time: a date of the calendar is skipped, any other runs and succeeds. */
function runTimes(initial: ActionState, dates: ReadonlySet<string>, runs: number): Date[] {
  const ran: Date[] = [];
  let state = initial;
  while (state.status === ActionStatus.Pending && ran.length < runs) {
    const now = state.nextAttemptAt;
    if (dates.has(localDay(state.executionTime, state.timezone!))) {
      state = transition(state, { type: 'calendarDate', now, catchUp }).after;
      continue;
    }
    ran.push(state.executionTime);
    const claimed = transition(state, { type: 'claimed' }).after;
    state = transition(claimed, { type: 'succeeded', now, note: null, catchUp }).after;
  }
  return ran;
}

describe('occurrences under a calendar', () => {
  it('are listed as the worker runs them: every date of the calendar left out, no run consumed by a skip', () => {
    const schedule = fc.constantFrom(
      { frequency: Frequency.Daily, cron: null },
      { frequency: Frequency.Hourly, cron: null },
      { frequency: null, cron: '30 9 * * MON-FRI' },
      { frequency: null, cron: '0 */8 * * *' },
    );
    const dayOffsets = fc.uniqueArray(fc.integer({ min: 0, max: 40 }), { maxLength: 25 });
    fc.assert(
      fc.property(
        schedule,
        fc.constantFrom('UTC', 'Europe/Berlin', 'America/New_York'),
        dayOffsets,
        fc.integer({ min: 1, max: 12 }),
        (s, zone, offsets, runs) => {
          const dates = new Set(offsets.map((offset) => new Date(START + offset * DAY).toISOString().slice(0, 10)));
          const action = repeating(s, zone, runs);
          const listed = upcomingOccurrences(action, runs, dates);
          expect(listed.map((time) => time.toISOString())).toEqual(runTimes(action, dates, runs).map((time) => time.toISOString()));
          for (const time of listed) expect(dates.has(localDay(time, zone))).toBe(false);
          // A frequency's executionRemainder counts runs only: the skips left every one of them.
          if (s.frequency) expect(listed).toHaveLength(runs);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('leave out a started occurrence whose date was added since: its next attempt is checked like the first', () => {
    const action = { ...repeating({ frequency: Frequency.Daily, cron: null }, 'UTC', 3), retryCount: 1 };
    const today = new Set([localDay(action.executionTime, 'UTC')]);
    expect(upcomingOccurrences(action, 1, today)).toEqual([new Date(action.executionTime.getTime() + 86_400_000)]);
  });

  it('pass a calendar covering the coming days in one step, however often the schedule runs', () => {
    const everySecond = repeating({ frequency: null, cron: '* * * * * *' }, 'Europe/Berlin', 0);
    const coming = new Set([0, 1, 2].map((offset) => localDay(new Date(START + offset * DAY), 'Europe/Berlin')));
    const started = process.hrtime.bigint();
    const listed = upcomingOccurrences(everySecond, 100, coming);
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(1000);
    expect(listed).toHaveLength(100);
    // Midnight in Berlin (UTC+1 in March) after three calendar days, then second by second.
    expect(listed[0].toISOString()).toBe('2027-03-22T23:00:00.000Z');
    expect(listed[99].toISOString()).toBe('2027-03-22T23:01:39.000Z');
  });

  it(`stop after ${MAX_LISTING_STEPS} steps, with the times found by then: fewer than asked`, () => {
    const mondays = repeating({ frequency: null, cron: '0 9 * * MON' }, 'UTC', 0);
    const firstMonday = Date.parse('2027-03-22T00:00:00Z');
    const calendar = (weeks: number) =>
      new Set(Array.from({ length: weeks }, (_, week) => new Date(firstMonday + week * 7 * DAY).toISOString().slice(0, 10)));
    expect(upcomingOccurrences(mondays, 3, calendar(MAX_LISTING_STEPS - 10))).toHaveLength(3);
    expect(upcomingOccurrences(mondays, 3, calendar(MAX_LISTING_STEPS + 10))).toEqual([]);
  });
});

describe('the history of a calendar date', () => {
  it("is one entry per skipped occurrence: the transition's own, saying the date, the calendar and what runs next", () => {
    const action = repeating({ frequency: Frequency.Daily, cron: null }, 'UTC', 3);
    const skipped = transition(action, { type: 'calendarDate', now: action.nextAttemptAt, catchUp });
    expect(skipped.skipped).toHaveLength(1);
    expect(skipEntriesOf(skipped)).toEqual([]);
    expect(skipped.history).toEqual([
      expect.objectContaining({ from: 'PENDING', to: 'PENDING', note: expect.stringMatching(/is a date of calendar holidays; next at/) }),
    ]);
    // Still told to the client and counted: one action.occurrence_skipped event for the calendar.
    expect(skipped.skipNotices.map((notice) => [notice.reason, notice.count])).toEqual([['calendar', 1]]);
  });

  it('keeps an entry for each other occurrence it passes, missed while the workers were down', () => {
    const action = repeating({ frequency: Frequency.Hourly, cron: null }, 'UTC', 10);
    const late = new Date(action.executionTime.getTime() + 3 * 3_600_000 + 60_000);
    const skipped = transition(action, { type: 'calendarDate', now: late, catchUp });
    const entries = skipEntriesOf(skipped);
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((entry) => !entry.note!.startsWith('skipped: calendar'))).toBe(true);
    expect(entries).toHaveLength(skipped.skipped.length - 1);
  });
});
