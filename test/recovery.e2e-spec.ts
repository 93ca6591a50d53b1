import { INestApplicationContext } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { HttpReceiver, waitUntil } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { emptyTables } from './support/fixtures';
import { emptyQueues, queuedJobs } from './support/queue-state';
import { flushRedis, keyCount, testRedis } from './support/test-redis';
import { startWorker } from './support/worker-test-app';

/** Fast promoter settings so recovery shows within a test's patience. */
const FAST = { PROMOTE_INTERVAL_MS: '100', OVERDUE_GRACE_MS: '500', SCHEDULE_HORIZON_MS: '3000' };

describe('Postgres is the source of truth: lost jobs, Redis loss and the horizon', () => {
  let api: ApiTestApp;
  let worker: INestApplicationContext | undefined;
  const receiver = new HttpReceiver();
  const redis = testRedis();

  beforeAll(async () => {
    await receiver.start();
    api = await startCleanApiApp(undefined, FAST);
  });
  afterEach(async () => {
    await worker?.close();
    worker = undefined;
  });
  afterAll(async () => {
    await api.close();
    await receiver.stop();
    redis.disconnect();
  });

  const httpAction = (executionTime: number, path: string) => ({ action: 'HTTP_REQUEST', executionTime, data: { url: receiver.url(path) } });

  async function completed(ids: string[]): Promise<number> {
    const [row] = await api.db.query(`SELECT count(*)::int AS n FROM actions WHERE id = ANY($1) AND status = 'COMPLETED'`, [ids]);
    return row.n;
  }

  function expectOneCallEach(ids: string[]) {
    const calls = receiver.callsByIdempotencyKey();
    expect(ids.map((id) => calls.get(`${id}:1`) ?? 0)).toEqual(ids.map(() => 1));
  }

  it('an action committed without its job (the API died in between) still runs, once', async () => {
    const id = randomUUID();
    await api.db.query(
      `INSERT INTO actions (id, tenant_id, action, status, execution_time, next_attempt_at, schedule_anchor, data, metadata)
       VALUES ($1, 'default', 'HTTP_REQUEST', 'PENDING', now(), now(), now(), $2, '{}')`,
      [id, JSON.stringify({ url: receiver.url('/orphan') })],
    );
    worker = await startWorker({ env: FAST });
    await waitUntil('the orphan to complete', async () => (await completed([id])) === 1);
    expectOneCallEach([id]);
  });

  it('after Redis loses everything, pending actions still run once: due ones promptly, future ones on time', async () => {
    const due = (await api.client.post('/actions/batch', { items: Array.from({ length: 50 }, () => httpAction(Date.now() + 200, '/flushed-due')) })).body
      .items;
    const later = Date.now() + 2500;
    const future = (await api.client.post('/actions/batch', { items: Array.from({ length: 50 }, () => httpAction(later, '/flushed-future')) })).body.items;
    await flushRedis(redis);
    expect(await queuedJobs(api.app)).toBe(0);

    worker = await startWorker({ env: FAST });
    const ids = [...due, ...future].map((a: any) => a.id);
    await waitUntil('all 100 to complete', async () => (await completed(ids)) === ids.length, 15_000);
    expectOneCallEach(ids);
    const futureCalls = receiver.callsTo('/flushed-future').map((c) => c.at);
    expect(Math.min(...futureCalls)).toBeGreaterThanOrEqual(later);
  });

  it('10,000 actions due in a day add nothing to Redis; a longer horizon promotes them', async () => {
    const keysBefore = await keyCount(redis);
    for (let batch = 0; batch < 10; batch += 1) {
      const items = Array.from({ length: 1000 }, () => httpAction(Date.now() + 86_400_000, '/backlog'));
      expect((await api.client.post('/actions/batch', { items })).status).toBe(201);
    }
    worker = await startWorker({ env: FAST });
    await waitUntil('a promoter tick', async () => (await api.db.query(`SELECT promoted_until > now() AS ticked FROM scheduler_state`))[0].ticked);
    expect(await queuedJobs(api.app)).toBe(0);
    // Queue bookkeeping only (a few keys for each of the queues: metadata, events, the promoter's marker), never one per action.
    expect(await keyCount(redis)).toBeLessThanOrEqual(keysBefore + 40);
    await worker.close();

    worker = await startWorker({ env: { ...FAST, SCHEDULE_HORIZON_MS: String(2 * 86_400_000) } });
    await waitUntil('all 10,000 to be promoted', async () => (await queuedJobs(api.app)) === 10_000, 30_000, 500);
  }, 90_000);

  it('actions beyond the horizon are promoted as they enter it, then run on time', async () => {
    await emptyTables(api.db);
    await emptyQueues(api.app);
    const farFuture = (await api.client.post('/actions/batch', { items: Array.from({ length: 200 }, () => httpAction(Date.now() + 86_400_000, '/far')) }))
      .body.items;
    expect(await queuedJobs(api.app)).toBe(0);
    worker = await startWorker({ env: FAST });
    await waitUntil('a promoter tick', async () => (await api.db.query(`SELECT promoted_until > now() AS ticked FROM scheduler_state`))[0].ticked);
    expect(await queuedJobs(api.app)).toBe(0);

    // Time passes for 20 of them: they now fall just beyond the promoted horizon.
    const entering = farFuture.slice(0, 20).map((a: any) => a.id);
    const [[{ due }]] = await api.db.query(
      `UPDATE actions SET next_attempt_at = now() + interval '4 seconds', execution_time = now() + interval '4 seconds'
       WHERE id = ANY($1) RETURNING next_attempt_at AS due`,
      [entering],
    );
    await waitUntil('the 20 to be promoted', async () => (await queuedJobs(api.app)) === 20, 5000);
    await waitUntil('the 20 to complete', async () => (await completed(entering)) === 20, 10_000);
    expect(Math.min(...receiver.callsTo('/far').map((c) => c.at))).toBeGreaterThanOrEqual(new Date(due).getTime());
    expectOneCallEach(entering);
  });
});
