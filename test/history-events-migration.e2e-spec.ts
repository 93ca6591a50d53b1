import { DataSource } from 'typeorm';
import { databaseMigratedTo } from './support/migrated-database';

const HISTORY_EVENTS_MIGRATION = 'HistoryEvents1763870001950';

type Entry = [action: string, from: string | null, to: string, occurrence: number, attempt: number, note: string | null];

/**
 * Entries written before history recorded events get them from what the entries say: the attempt
 * outcomes the console's activity used to work out from the entries around them, and each event
 * from its statuses and note.
 */
describe('The migration that records the event of each history entry', () => {
  let db: DataSource;

  beforeAll(async () => {
    db = await databaseMigratedTo('history_events_migration', HISTORY_EVENTS_MIGRATION);
    await db.undoLastMigration({ transaction: 'each' });
  });
  afterAll(() => db.destroy());

  const ids = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((_, i) => `00000000-0000-4000-8000-00000000000${i + 1}`);
  const [a, b, c, d, e, canceledAfterSuccess, canceledAfterFailure] = ids;

  it('gives every entry its event, and each attempt that ended its outcome', async () => {
    await db.query(`INSERT INTO tenants (id) VALUES ('default') ON CONFLICT DO NOTHING`);
    // The rows as the entries below left them: a, d and e moved on to their second occurrence; the cancels' retry counts.
    for (const [id, occurrence, status, retries] of [
      [a, 2, 'FAILED', 2],
      [b, 1, 'NO_ACTION', 0],
      [c, 1, 'COMPLETED', 0],
      [d, 2, 'PENDING', 0],
      [e, 2, 'PENDING', 0],
      [canceledAfterSuccess, 1, 'CANCELED', 0],
      [canceledAfterFailure, 1, 'CANCELED', 1],
    ] as const) {
      await db.query(
        `INSERT INTO actions (id, tenant_id, action, status, occurrence, retry_count, execution_time, next_attempt_at, schedule_anchor, data)
          VALUES ($1, 'default', 'HTTP_REQUEST', $2, $3, $4, now(), now(), now(), '{}')`,
        [id, status, occurrence, retries],
      );
    }
    const entries: [Entry, string, string | null][] = [
      [[a, null, 'PENDING', 1, 0, null], 'created', null],
      [[a, 'PENDING', 'IN_PROGRESS', 1, 1, null], 'claimed', null],
      // Back to PENDING, and the next entry is at a later occurrence: a success.
      [[a, 'IN_PROGRESS', 'PENDING', 1, 1, null], 'succeeded', 'succeeded'],
      [[a, 'PENDING', 'IN_PROGRESS', 2, 1, null], 'claimed', null],
      // Back to PENDING at the same occurrence: a retry after a failure.
      [[a, 'IN_PROGRESS', 'PENDING', 2, 1, 'HTTP 500'], 'failed', 'failed'],
      [[a, 'PENDING', 'IN_PROGRESS', 2, 2, null], 'claimed', null],
      [[a, 'IN_PROGRESS', 'IN_PROGRESS', 2, 3, 'attempt 2 was interrupted (worker lost); running it again as attempt 3'], 'interrupted', 'failed'],
      [[a, 'IN_PROGRESS', 'FAILED', 2, 3, 'HTTP 500'], 'failed', 'failed'],
      [[a, 'FAILED', 'PENDING', 2, 0, 'manual retry'], 'retriedManually', null],
      [[b, 'PENDING', 'NO_ACTION', 1, 0, 'No live worker knew action type X while it was due'], 'typeUnknown', 'no_action'],
      [[c, 'PENDING', 'PENDING', 1, 0, 'paused'], 'paused', null],
      [[c, 'PENDING', 'PENDING', 1, 0, 'resumed'], 'resumed', null],
      [[c, 'PENDING', 'PENDING', 1, 0, 'updated executionTime'], 'patched', null],
      [[c, 'IN_PROGRESS', 'FAILED', 1, 2, 'attempt 2 was interrupted (worker lost); no retries left'], 'interrupted', 'failed'],
      [[c, 'IN_PROGRESS', 'COMPLETED', 1, 1, null], 'succeeded', 'succeeded'],
      // Skipped occurrences take the event whose own entry follows them.
      [[d, 'PENDING', 'PENDING', 2, 0, 'skipped: request, 2025-03-01T00:00:00.000Z'], 'skipRequested', null],
      [[d, 'PENDING', 'PENDING', 2, 0, 'skip of the next 1 occurrence(s) requested; next at 2025-03-02T00:00:00.000Z'], 'skipRequested', null],
      [[d, 'PENDING', 'PENDING', 2, 0, 'skipped: calendar, 2025-03-02T00:00:00.000Z'], 'calendarDate', null],
      [[d, 'PENDING', 'PENDING', 2, 0, '2025-03-02T00:00:00.000Z is a date of calendar holidays; next at 2025-03-03T00:00:00.000Z'], 'calendarDate', null],
      // Back to PENDING with no later entry: the action itself is at a later occurrence.
      [[e, 'PENDING', 'PENDING', 2, 0, 'skipped: misfire, 2025-03-01T00:00:00.000Z'], 'succeeded', null],
      [[e, 'IN_PROGRESS', 'PENDING', 1, 1, 'HTTP 200'], 'succeeded', 'succeeded'],
      // A cancel request while the attempt ran, then the attempt's end: the row's retry count tells how it ended.
      [[canceledAfterSuccess, 'IN_PROGRESS', 'IN_PROGRESS', 1, 0, 'cancel requested; occurrence 1 finishes first'], 'canceled', null],
      [[canceledAfterSuccess, 'IN_PROGRESS', 'CANCELED', 1, 1, 'canceled as requested'], 'succeeded', 'succeeded'],
      [[canceledAfterFailure, 'IN_PROGRESS', 'CANCELED', 1, 1, 'HTTP 500; canceled as requested'], 'failed', 'failed'],
      [[canceledAfterFailure, 'PENDING', 'PENDING', 1, 0, 'something no event writes'], 'unattributed', null],
    ];
    for (const [[id, from, to, occurrence, attempt, note]] of entries) {
      await db.query(
        `INSERT INTO action_history (action_id, from_status, to_status, occurrence, attempt, note, at) VALUES ($1, $2, $3, $4, $5, $6, clock_timestamp())`,
        [id, from, to, occurrence, attempt, note],
      );
    }

    await db.runMigrations({ transaction: 'each' });

    const recorded: { event: string; outcome: string | null }[] = await db.query(`SELECT event, outcome FROM action_history ORDER BY id`);
    expect(recorded).toEqual(entries.map(([, event, outcome]) => ({ event, outcome })));
    const [{ nullable }] = await db.query(
      `SELECT is_nullable AS nullable FROM information_schema.columns WHERE table_name = 'action_history' AND column_name = 'event'`,
    );
    expect(nullable).toBe('NO');
  });
});
