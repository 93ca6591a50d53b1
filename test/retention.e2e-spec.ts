import { INestApplicationContext } from '@nestjs/common';
import { RetentionLoop } from '@app/server';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { httpRequestExample } from './support/fixtures';
import { holdRetentionLock } from './support/retention-lock';
import { startWorker } from './support/worker-test-app';

describe('Retention purge', () => {
  let api: ApiTestApp;
  let worker: INestApplicationContext;
  let releaseRetentionLock: () => Promise<void>;

  beforeAll(async () => {
    api = await startCleanApiApp();
    releaseRetentionLock = await holdRetentionLock(api);
    // A failed webhook delivery waits an hour for its retry: it stays PENDING while the spec runs.
    worker = await startWorker({ env: { RETENTION_DAYS: '14', WEBHOOK_BACKOFF_DELAYS_MS: '3600000' } });
  });
  afterAll(async () => {
    await worker.close();
    await releaseRetentionLock();
    await api.close();
  });

  async function actionFinished(status: string, daysAgo: number | null): Promise<string> {
    const action = (await api.client.post('/actions', httpRequestExample(), { headers: { 'Idempotency-Key': `ret-${Math.random()}` } })).body;
    await api.db.query(`UPDATE actions SET status = $2, finished_at = now() - make_interval(days => $3) WHERE id = $1`, [action.id, status, daysAgo]);
    return action.id;
  }

  it('deletes finished actions 14 days after they finished, with their history and keys, and keeps the rest', async () => {
    const old = await Promise.all(['COMPLETED', 'FAILED', 'NO_ACTION'].map((status) => actionFinished(status, 15)));
    const recent = await actionFinished('COMPLETED', 13);
    const pending = (await api.client.post('/actions', httpRequestExample())).body.id;
    await api.db.query(`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE action_id = $1`, [recent]);

    const purged = await worker.get(RetentionLoop).purge();
    expect(purged).toMatchObject({ actions: 3, idempotencyKeys: 1 });
    const left = (await api.db.query(`SELECT id FROM actions`)).map((r: { id: string }) => r.id).sort();
    expect(left).toEqual([recent, pending].sort());
    expect(await api.db.query(`SELECT 1 FROM action_history WHERE action_id = ANY($1)`, [old])).toHaveLength(0);
    expect(await api.db.query(`SELECT 1 FROM idempotency_keys`)).toHaveLength(0);
  });

  it("forgets a worker's declaration a day after it stopped living, and keeps the recent ones", async () => {
    const declare = (id: string, liveUntil: string) =>
      api.db.query(
        `INSERT INTO workers (id, host, pid, knows, serves, concurrency, live_until) VALUES ($1, 'old-host', 1, '{}', '{}', 1, now() - $2::interval)`,
        [id, liveUntil],
      );
    const [stale, recent] = ['00000000-0000-4000-8000-00000000dead', '00000000-0000-4000-8000-0000000000ce'];
    await declare(stale, '25 hours');
    await declare(recent, '23 hours');

    const purged = await worker.get(RetentionLoop).purge();
    expect(purged.workers).toBe(1);
    const left = (await api.db.query(`SELECT id FROM workers WHERE id = ANY($1)`, [[stale, recent]])).map((r: { id: string }) => r.id);
    expect(left).toEqual([recent]);
    // The running worker's own declaration is live, and stays.
    expect((await api.db.query(`SELECT 1 FROM workers WHERE live_until > now()`)).length).toBeGreaterThan(0);
  });

  it('deletes replay-protection nonces past their expiry and keeps the live ones', async () => {
    await api.db.query(`TRUNCATE accepted_nonces`);
    for (let i = 0; i < 5; i += 1) expect((await api.client.get('/actions?limit=1')).status).toBe(200);
    const recorded: string[] = (await api.db.query(`SELECT nonce FROM accepted_nonces ORDER BY nonce`)).map((r: { nonce: string }) => r.nonce);
    expect(recorded).toHaveLength(5);
    const [expired, live] = [recorded.slice(0, 3), recorded.slice(3)];
    await api.db.query(`UPDATE accepted_nonces SET expires_at = now() - interval '1 second' WHERE nonce = ANY($1)`, [expired]);

    await worker.get(RetentionLoop).purge();
    const left = (await api.db.query(`SELECT nonce FROM accepted_nonces ORDER BY nonce`)).map((r: { nonce: string }) => r.nonce);
    expect(left).toEqual(live);
  });
});
