import { randomUUID } from 'node:crypto';
import { QueryRunner } from 'typeorm';
import { ActionState, ActionStatus, claimable, endsForUnknownType, heldByPause, occurrenceLocalDay, overdue, startOfLocalDay } from '@app/domain';
import {
  HELD_BY_PAUSE,
  claimableAt,
  ofUnknownTypeAt,
  occurrenceLocalDay as occurrenceLocalDaySql,
  overdueBefore,
} from '../libs/database/src/repositories/action-predicates';
import { DELETION_CASES, TRANSITION_CASES, now } from '../libs/domain/src/lifecycle/lifecycle.cases';
import { ApiTestApp, startApiApp } from './support/api-test-app';

// Each SQL predicate the readers of `actions` share, asked of Postgres for every state of the lifecycle's case table (and the same
// state PENDING, and held by a pause), must answer what its TypeScript twin answers: the next rule cannot drift between the two.

type Row = Pick<ActionState, 'status' | 'occurrence' | 'pausedFrom' | 'nextAttemptAt'> & { claimedUntil: Date | null };

/** Claims of an IN_PROGRESS row relative to the cases' `now`: lapsed long ago, lapsed a moment ago, still held. */
const CLAIMED_UNTIL = [-3 * 3600_000, -30 * 1000, 30 * 1000];

/**
 * Every distinct row the table's states make, as they are, PENDING, PENDING held by a pause from their occurrence, and
 * IN_PROGRESS under a lapsed or held claim.
 */
function caseRows(): Row[] {
  const states = [...TRANSITION_CASES.map(([, before]) => before), ...DELETION_CASES.map(([, before]) => before)];
  const rows = states.flatMap((s): Row[] => [
    { ...s, claimedUntil: null },
    { ...s, status: ActionStatus.Pending, claimedUntil: null },
    { ...s, status: ActionStatus.Pending, pausedFrom: s.occurrence, claimedUntil: null },
    { ...s, status: ActionStatus.Pending, pausedFrom: s.occurrence + 1, claimedUntil: null },
    ...CLAIMED_UNTIL.map((offset) => ({ ...s, status: ActionStatus.InProgress, claimedUntil: new Date(now.getTime() + offset) })),
  ]);
  const key = (r: Row) => `${r.status}|${r.occurrence}|${r.pausedFrom}|${r.nextAttemptAt.toISOString()}|${r.claimedUntil?.toISOString()}`;
  return [...new Map(rows.map((r) => [key(r), r])).values()];
}

const MINUTE = 60_000;
/** When the last worker that knew the type stopped being live, relative to the cases' `now`; null: none on record. */
const KNOWN_UNTIL = [null, -3 * 3600_000, -30 * 1000, 10 * 1000];
const GRACES = [MINUTE, 3 * 3600_000];

describe('The SQL predicates on actions answer as their TypeScript twins, for every state of the lifecycle table', () => {
  let api: ApiTestApp;
  /** One transaction for the whole spec, rolled back at the end: its workers are seen by no one else, and no one else's cleaning removes them. */
  let session: QueryRunner;
  const types = new Map<number | null, string>();

  beforeAll(async () => {
    api = await startApiApp();
    session = api.db.createQueryRunner();
    await session.startTransaction();
    // One type per scenario, known by one stopped (or still live) worker of its own; a null scenario's type no worker ever knew.
    for (const offset of KNOWN_UNTIL) {
      const type = `PREDICATE_${randomUUID().slice(0, 8).toUpperCase()}`;
      types.set(offset, type);
      if (offset === null) continue;
      await session.query(`INSERT INTO workers (id, host, pid, knows, serves, concurrency, live_until) VALUES ($1, 'spec', 1, $2, $2, 1, $3)`, [
        randomUUID(),
        [type],
        new Date(now.getTime() + offset),
      ]);
    }
  });
  afterAll(async () => {
    await session?.rollbackTransaction();
    await session?.release();
    await api?.close();
  });

  /** What `predicate` says of `row` (of `type`), with `$7` and `$8` the extra parameters. */
  async function sqlSays(predicate: string, row: Row, type: string, ...extra: unknown[]): Promise<boolean> {
    const [result]: { holds: boolean }[] = await session.query(
      `SELECT ${predicate} AS holds FROM (SELECT $1::varchar AS status, $2::integer AS occurrence, $3::integer AS paused_from,
         $4::timestamptz AS next_attempt_at, $5::varchar AS action, $6::timestamptz AS claimed_until) AS actions`,
      [row.status, row.occurrence, row.pausedFrom, row.nextAttemptAt, type, row.claimedUntil, ...extra],
    );
    return result.holds;
  }

  const rows = caseRows();
  const named = (r: Row) =>
    `${r.status} occurrence ${r.occurrence} paused from ${r.pausedFrom} due ${r.nextAttemptAt.toISOString()} claimed until ${r.claimedUntil?.toISOString()}`;

  it('covers rows each predicate holds for and rows it does not', () => {
    expect(rows.some((r) => heldByPause(r))).toBe(true);
    expect(rows.some((r) => !heldByPause(r) && r.pausedFrom !== null)).toBe(true);
    expect(rows.some((r) => claimable(r, now))).toBe(true);
    expect(rows.some((r) => !claimable(r, now) && r.status === ActionStatus.Pending)).toBe(true);
    expect(rows.some((r) => endsForUnknownType(r, now, MINUTE, null))).toBe(true);
    expect(rows.some((r) => r.status === ActionStatus.InProgress && endsForUnknownType(r, now, MINUTE, null))).toBe(true);
    expect(rows.some((r) => r.status === ActionStatus.InProgress && !endsForUnknownType(r, now, MINUTE, null))).toBe(true);
  });

  it.each(rows.map((r) => [named(r), r] as const))('%s', async (_name, row) => {
    const type = types.get(null)!;
    expect(['held by a pause', await sqlSays(HELD_BY_PAUSE, row, type)]).toEqual(['held by a pause', heldByPause(row)]);
    expect(['claimable', await sqlSays(claimableAt('$7::timestamptz'), row, type, now)]).toEqual(['claimable', claimable(row, now)]);
    for (const dueBefore of [new Date(now.getTime() - MINUTE), now, new Date(now.getTime() + MINUTE)]) {
      expect(['overdue', dueBefore, await sqlSays(overdueBefore('$7::timestamptz'), row, type, dueBefore)]).toEqual([
        'overdue',
        dueBefore,
        overdue(row, dueBefore),
      ]);
    }
    for (const offset of KNOWN_UNTIL) {
      const knownUntil = offset === null ? null : new Date(now.getTime() + offset);
      for (const graceMs of GRACES) {
        const sql = await sqlSays(ofUnknownTypeAt('$7::timestamptz', '$8::integer'), row, types.get(offset)!, now, graceMs);
        expect(['of an unknown type', knownUntil, graceMs, sql]).toEqual([
          'of an unknown type',
          knownUntil,
          graceMs,
          endsForUnknownType(row, now, graceMs, knownUntil),
        ]);
      }
    }
  });

  it("finds the same local day of an occurrence as the calendar's TypeScript rule, over decades, in zones of every kind and at each local midnight", async () => {
    // No zone (a one-off action: UTC), whole-hour, half- and quarter-hour offsets, southern and half-hour summer time,
    // a zone that skipped a whole day (Apia, 2011-12-30) and ones beyond ±12 h.
    const zones = [
      null,
      'UTC',
      'Europe/Berlin',
      'America/New_York',
      'America/St_Johns',
      'Asia/Kolkata',
      'Asia/Kathmandu',
      'Australia/Lord_Howe',
      'America/Santiago',
      'Pacific/Apia',
      'Pacific/Kiritimati',
      'Pacific/Pago_Pago',
    ];
    const from = Date.parse('2000-01-01T00:00:00Z');
    const until = Date.parse('2037-01-01T00:00:00Z');
    // A step that is no whole number of hours or days, so the instants fall at every time of day over the years.
    const step = 3 * 86_400_000 + 7 * 3_600_000 + 13 * 60_000 + 11_007;
    let compared = 0;
    for (const timezone of zones) {
      const times: Date[] = [];
      for (let t = from; t < until; t += step) times.push(new Date(t));
      // Each side of the local midnight that starts the 1st and the 15th of every month.
      for (let year = 2000; year < 2037; year += 1) {
        for (let month = 1; month <= 12; month += 1) {
          for (const day of ['01', '15']) {
            const midnight = startOfLocalDay(`${year}-${String(month).padStart(2, '0')}-${day}`, timezone ?? 'UTC').getTime();
            times.push(new Date(midnight - 1), new Date(midnight));
          }
        }
      }
      const rows: { day: string }[] = await session.query(
        `SELECT ${occurrenceLocalDaySql('a')}::text AS day
           FROM (SELECT u.t AS execution_time, $2::varchar AS timezone, u.n FROM unnest($1::timestamptz[]) WITH ORDINALITY AS u(t, n)) a ORDER BY a.n`,
        [times, timezone],
      );
      const differing = times
        .map((time, i) => ({ time: time.toISOString(), sql: rows[i].day, typescript: occurrenceLocalDay({ executionTime: time, timezone }) }))
        .filter((c) => c.sql !== c.typescript);
      expect([timezone, differing.slice(0, 5)]).toEqual([timezone, []]);
      compared += times.length;
    }
    expect(compared).toBeGreaterThan(50_000);
  });
});
