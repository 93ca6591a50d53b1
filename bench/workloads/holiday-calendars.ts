import { BenchClient } from '../bench-client';
import { Stores } from '../harness';
import { percentile } from '../percentile';

export interface CalendarChangeSizes {
  /** Repeating actions naming the calendar. */
  actions: number;
  /** Measured changes, one at a time. */
  changes: number;
}

export interface CalendarChangeFigures {
  actions: number;
  dates: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

const CALENDAR = 'bench-holidays';
const DATES = 5000;
const DAY_MS = 86_400_000;

/** `DATES` consecutive days from `first`: every change replaces every date. */
function datesFrom(first: number): string[] {
  return Array.from({ length: DATES }, (_, i) => new Date(first + i * DAY_MS).toISOString().slice(0, 10));
}

/**
 * A change of a calendar that `actions` repeating actions name (contract: well under a second at
 * 100,000): `PUT /calendars/:name` with its largest list of dates, each change replacing them all.
 * The actions are written by SQL, far in the future so nothing runs.
 */
export async function calendarChange(client: BenchClient, stores: Stores, sizes: CalendarChangeSizes): Promise<CalendarChangeFigures> {
  await stores.reset();
  const first = await client.put(`/calendars/${CALENDAR}`, { dates: datesFrom(Date.UTC(2040, 0, 1)) });
  if (first.status !== 200) throw new Error(`PUT /calendars answered ${first.status}`);
  await stores.db.query(
    `INSERT INTO actions (id, tenant_id, action, status, execution_time, next_attempt_at, schedule_anchor, data, repeat, frequency, timezone,
       execution_remainder, dst_policy, calendar)
     SELECT gen_random_uuid(), 'default', 'HTTP_REQUEST', 'PENDING', t, t, t, '{}'::jsonb, true, 'DAILY', 'UTC', 10, '{"gap":"shift","overlap":"first"}', $2
     FROM generate_series(1, $1::int) i, LATERAL (SELECT now() + interval '30 days' + i * interval '1 second' AS t) due`,
    [sizes.actions, CALENDAR],
  );
  await stores.db.query(`ANALYZE actions`);
  const times: number[] = [];
  for (let i = 0; i < sizes.changes; i += 1) {
    const dates = datesFrom(Date.UTC(2040 + (i % 2) * 20, 0, 1));
    const t0 = performance.now();
    const answer = await client.put(`/calendars/${CALENDAR}`, { dates });
    times.push(performance.now() - t0);
    if (answer.status !== 200) throw new Error(`PUT /calendars answered ${answer.status}`);
  }
  times.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return { actions: sizes.actions, dates: DATES, p50Ms: round(percentile(times, 50)), p99Ms: round(percentile(times, 99)), maxMs: round(times.at(-1)!) };
}
