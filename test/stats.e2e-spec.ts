import { DataSource } from 'typeorm';
import { ActionCountsRepository, dataSourceOptions, ensureDatabase } from '@app/database';
import { waitUntil } from '@app/testing';
import { RetentionLoop } from '@app/server';
import { InitialSchema1763870000000 } from '../libs/database/src/migrations/1763870000000-initial-schema';
import { RequestHashAndStatusCounts1763870000100 } from '../libs/database/src/migrations/1763870000100-request-hash-and-status-counts';
import { emptyTables, httpRequestExample, notificationExample } from './support/fixtures';
import { useRunningStack } from './support/running-stack';

const HOUR = 3_600_000;
const STATUSES = ['PENDING', 'IN_PROGRESS', 'COMPLETED', 'FAILED', 'NO_ACTION', 'CANCELED'];

/** What GET /actions/stats must answer, counted the slow way. */
async function countedByGroupBy(db: DataSource) {
  const rows: { action: string; status: string; n: number }[] = await db.query(
    `SELECT action, status, count(*)::int AS n FROM actions GROUP BY action, status`,
  );
  const byStatus = Object.fromEntries(STATUSES.map((s) => [s, 0]));
  const byAction: Record<string, Record<string, number>> = {};
  for (const { action, status, n } of rows) {
    byStatus[status] += n;
    byAction[action] = { ...byAction[action], [status]: n };
  }
  return { total: rows.reduce((sum, r) => sum + r.n, 0), byStatus, byAction };
}

describe('GET /actions/stats stays exact without counting the table', () => {
  const stack = useRunningStack({ api: { LOCK_WINDOW_MS: '100' }, worker: { MAX_RETRIES: '0' } });

  async function expectExact(): Promise<void> {
    const response = await stack.api.client.get('/actions/stats');
    expect(response.status).toBe(200);
    expect(response.body).toEqual(await countedByGroupBy(stack.api.db));
  }

  const deltaRows = async () => (await stack.api.db.query(`SELECT count(*)::int AS n FROM action_counts`))[0].n as number;
  const reaches = (id: string, status: string) =>
    waitUntil(`action ${id} to be ${status}`, async () => (await stack.api.client.get(`/actions/${id}`)).body.status === status);
  const dueNow = (path: string) => ({ action: 'HTTP_REQUEST', executionTime: Date.now(), data: { url: stack.receiver.url(path) } });

  it('through create, batch, run, failure, manual retry, patch, delete, retention purge and compaction', async () => {
    await expectExact();
    const [far, other] = await Promise.all([
      stack.api.client.post('/actions', httpRequestExample(2 * HOUR)),
      stack.api.client.post('/actions', notificationExample(2 * HOUR)),
    ]);
    await stack.api.client.post('/actions/batch', {
      items: Array.from({ length: 50 }, (_, i) => (i % 2 ? httpRequestExample(HOUR) : notificationExample(HOUR))),
    });
    await expectExact();

    stack.receiver.failNext(1);
    const failing = (await stack.api.client.post('/actions', dueNow('/fail'))).body;
    await reaches(failing.id, 'FAILED');
    const ok = (await stack.api.client.post('/actions', dueNow('/ok'))).body;
    await reaches(ok.id, 'COMPLETED');
    await expectExact();

    expect((await stack.api.client.post(`/actions/${failing.id}/retry`)).status).toBe(200);
    await reaches(failing.id, 'COMPLETED');
    await expectExact();

    expect((await stack.api.client.patch(`/actions/${far.body.id}`, { metadata: { patched: true } })).status).toBe(200);
    await expectExact();

    expect((await stack.api.client.delete(`/actions/${other.body.id}`)).status).toBe(204);
    await expectExact();

    await stack.api.db.query(`UPDATE actions SET finished_at = now() - interval '15 days' WHERE id = $1`, [ok.id]);
    expect(await stack.worker.get(RetentionLoop).purge()).toMatchObject({ actions: 1 });
    await expectExact();

    expect(await stack.worker.get(ActionCountsRepository).compact()).toBeGreaterThan(0);
    const pairs = (await countedByGroupBy(stack.api.db)).byAction;
    expect(await deltaRows()).toBe(Object.values(pairs).reduce((n, statuses) => n + Object.keys(statuses).length, 0));
    await expectExact();
  });

  it('adds no delta for an update that moves no status', async () => {
    // Repeatable read: the worker's compaction may fold rows meanwhile, but not in this snapshot.
    const runner = stack.api.db.createQueryRunner();
    await runner.startTransaction('REPEATABLE READ');
    try {
      const count = async () => (await runner.query(`SELECT count(*)::int AS n FROM action_counts`))[0].n as number;
      const before = await count();
      const [, updated] = await runner.query(`UPDATE actions SET metadata = '{"touched":true}', updated_at = now() WHERE status = 'PENDING'`);
      expect(updated).toBeGreaterThan(0);
      expect(await count()).toBe(before);
      await runner.query(`UPDATE actions SET status = 'FAILED' WHERE status = 'PENDING'`);
      expect(await count()).toBe(before + 2 * 2); // PENDING −n and FAILED +n, for each of the two types
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  });

  it('while creates, batches and compactions run at the same time', async () => {
    const counts = stack.worker.get(ActionCountsRepository);
    const writes = Array.from({ length: 100 }, (_, i) =>
      i % 10 === 0
        ? stack.api.client.post('/actions/batch', { items: Array.from({ length: 20 }, () => httpRequestExample(HOUR)) })
        : stack.api.client.post('/actions', notificationExample(HOUR)),
    );
    const compactions = Array.from({ length: 10 }, async (_, i) => {
      await new Promise((resolve) => setTimeout(resolve, i * 15));
      return counts.compact();
    });
    await Promise.all([...writes, ...compactions]);
    await expectExact();
  });

  it('folds the deltas on read when they pile up, so the next read is short', async () => {
    // 6,000 deltas that cancel out, as 3,000 creates and deletes without a worker would leave.
    await stack.api.db.query(
      `INSERT INTO action_counts (tenant_id, action, status, delta) SELECT 'default', 'HTTP_REQUEST', 'PENDING', CASE WHEN i % 2 = 0 THEN 1 ELSE -1 END FROM generate_series(1, 6000) i`,
    );
    await expectExact();
    await waitUntil('the deltas to be folded', async () => (await deltaRows()) < 100);
    await expectExact();
  });

  it('TRUNCATE actions empties the counts too', async () => {
    await emptyTables(stack.api.db);
    expect(await deltaRows()).toBe(0);
    await expectExact();
    expect((await stack.api.client.get('/actions/stats')).body.total).toBe(0);
  });
});

describe('The counts migration', () => {
  const url = `${process.env.DATABASE_URL}_counts_migration`;

  afterAll(async () => {
    const admin = new DataSource({ type: 'postgres', url: process.env.DATABASE_URL });
    await admin.initialize();
    await admin.query(`DROP DATABASE IF EXISTS "${new URL(url).pathname.slice(1)}" WITH (FORCE)`);
    await admin.destroy();
  });

  it('starts from the rows that exist before it', async () => {
    await ensureDatabase(url);
    const before = new DataSource({ ...dataSourceOptions(url), migrations: [InitialSchema1763870000000] });
    await before.initialize();
    await before.query(`DROP SCHEMA public CASCADE; CREATE SCHEMA public`);
    await before.runMigrations();
    await before.query(
      `INSERT INTO actions (id, action, status, execution_time, next_attempt_at, schedule_anchor, data)
       SELECT gen_random_uuid(), CASE WHEN i % 3 = 0 THEN 'A' ELSE 'B' END, (ARRAY['PENDING', 'COMPLETED', 'FAILED'])[i % 3 + 1], now(), now(), now(), '{}'
       FROM generate_series(1, 1000) i`,
    );
    await before.destroy();

    const after = new DataSource({ ...dataSourceOptions(url), migrations: [InitialSchema1763870000000, RequestHashAndStatusCounts1763870000100] });
    await after.initialize();
    try {
      await after.runMigrations({ transaction: 'each' });
      await after.query(`UPDATE actions SET status = 'NO_ACTION' WHERE id IN (SELECT id FROM actions WHERE action = 'B' LIMIT 10)`);
      const counted = await after.query(
        `SELECT action, status, sum(delta)::int AS n FROM action_counts GROUP BY 1, 2 HAVING sum(delta) <> 0 ORDER BY 1, 2`,
      );
      const truth = await after.query(`SELECT action, status, count(*)::int AS n FROM actions GROUP BY 1, 2 ORDER BY 1, 2`);
      expect(counted).toEqual(truth);
      expect(truth).toHaveLength(3 + 1);
    } finally {
      await after.destroy();
    }
  });
});
