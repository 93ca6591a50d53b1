import { randomUUID } from 'node:crypto';
import { QueryRunner } from 'typeorm';
import { ActionState, ActionStatus, claimable, endsForUnknownType, overdue } from '@app/domain';
import { claimableAt, ofUnknownTypeAt, overdueBefore } from '../libs/database/src/repositories/action-predicates';
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
    expect(rows.some((r) => claimable(r, now))).toBe(true);
    expect(rows.some((r) => !claimable(r, now) && r.status === ActionStatus.Pending)).toBe(true);
    expect(rows.some((r) => endsForUnknownType(r, now, MINUTE, null))).toBe(true);
    expect(rows.some((r) => r.status === ActionStatus.InProgress && endsForUnknownType(r, now, MINUTE, null))).toBe(true);
    expect(rows.some((r) => r.status === ActionStatus.InProgress && !endsForUnknownType(r, now, MINUTE, null))).toBe(true);
  });

  it.each(rows.map((r) => [named(r), r] as const))('%s', async (_name, row) => {
    const type = types.get(null)!;
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
});
