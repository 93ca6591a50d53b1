import { INestApplicationContext } from '@nestjs/common';
import { Client } from 'pg';
import { HttpReceiver, TcpProxy, waitUntil } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { httpRequestExample } from './support/fixtures';
import { startWorker } from './support/worker-test-app';

// A short shutdown wait: a worker whose Redis was cut may hold a job that ends only with the wait.
const FAST = { PROMOTE_INTERVAL_MS: '200', OVERDUE_GRACE_MS: '1000', CLAIM_LEASE_MS: '1500', SHUTDOWN_TIMEOUT_MS: '3000' };

describe('Outages: Postgres or Redis unreachable, cut with a TCP proxy', () => {
  const receiver = new HttpReceiver();
  const db = new Client({ connectionString: process.env.DATABASE_URL });
  const postgresProxy = new TcpProxy('127.0.0.1', 5432);
  const redisProxy = new TcpProxy('127.0.0.1', 6379);
  let api: ApiTestApp;
  let worker: INestApplicationContext | undefined;

  beforeAll(async () => {
    await Promise.all([receiver.start(), db.connect(), postgresProxy.start(), redisProxy.start()]);
  });
  afterEach(async () => {
    postgresProxy.restore();
    redisProxy.restore();
    await worker?.close();
    worker = undefined;
    await api?.close();
  });
  afterAll(async () => {
    await Promise.all([receiver.stop(), db.end(), postgresProxy.stop(), redisProxy.stop()]);
  });

  const count = async () => (await db.query('SELECT count(*)::int AS n FROM actions')).rows[0].n;
  const health = async () => (await fetch(`${api.client.baseUrl}/health`)).json();
  const completedOnce = async (ids: string[]) => {
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM actions WHERE id = ANY($1) AND status = 'COMPLETED'`, [ids]);
    return rows[0].n === ids.length;
  };

  it('Postgres unreachable: the API answers 503 quickly and stores nothing, /health says so, and it recovers by itself', async () => {
    api = await startCleanApiApp(undefined, { DATABASE_URL: postgresProxy.proxied(process.env.DATABASE_URL!) });
    const before = await count();
    postgresProxy.cut();
    const started = Date.now();
    const refused = await api.client.post('/actions', httpRequestExample());
    expect(refused.status).toBe(503);
    expect(refused.body.message).toBe('The database is unreachable; nothing was changed. Try again shortly.');
    expect(Date.now() - started).toBeLessThan(5000);
    expect((await health()).details.postgres.status).toBe('down');
    expect(await count()).toBe(before);

    postgresProxy.restore();
    const accepted = await waitUntil('the API to accept again', async () => {
      const response = await api.client.post('/actions', httpRequestExample());
      return response.status === 201 ? response : null;
    });
    expect(accepted.body.status).toBe('PENDING');
    expect(await count()).toBe(before + 1);
  });

  it('Redis unreachable: the API still accepts actions into Postgres, /health says so, and they run once Redis is back', async () => {
    // Only the queues' Redis is cut here: message patterns stay off (they have their own outage behaviour, in rpc-actions).
    api = await startCleanApiApp(undefined, { REDIS_URL: redisProxy.proxied(process.env.REDIS_URL!), ...FAST });
    worker = await startWorker({ env: FAST });
    redisProxy.cut();
    const created = await Promise.all(
      Array.from({ length: 5 }, () =>
        api.client.post('/actions', { action: 'HTTP_REQUEST', executionTime: Date.now(), data: { url: receiver.url('/redis-cut') } }),
      ),
    );
    expect(created.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect((await health()).details.redis.status).toBe('down');
    redisProxy.restore();
    const ids = created.map((r) => r.body.id);
    await waitUntil('all five to run', () => completedOnce(ids), 15_000);
    const calls = receiver.callsByIdempotencyKey();
    expect(ids.map((id) => calls.get(`${id}:1`))).toEqual([1, 1, 1, 1, 1]);
  });

  it('Postgres cut for a few seconds while actions are due: the worker resumes and each runs exactly once', async () => {
    api = await startCleanApiApp(undefined, FAST);
    worker = await startWorker({ env: { ...FAST, DATABASE_URL: postgresProxy.proxied(process.env.DATABASE_URL!) } });
    const items = Array.from({ length: 20 }, (_, i) => ({
      action: 'HTTP_REQUEST',
      executionTime: Date.now() + 300 + i * 100,
      data: { url: receiver.url('/pg-cut') },
    }));
    const ids: string[] = (await api.client.post('/actions/batch', { items })).body.items.map((a: any) => a.id);
    postgresProxy.cut();
    await new Promise((resolve) => setTimeout(resolve, 3000));
    postgresProxy.restore();
    await waitUntil('all twenty to run', () => completedOnce(ids), 30_000);
    const calls = receiver.callsByIdempotencyKey();
    expect(ids.map((id) => calls.get(`${id}:1`))).toEqual(ids.map(() => 1));
  });

  it('Redis cut for a few seconds while actions are due: the worker reconnects and each runs exactly once', async () => {
    api = await startCleanApiApp(undefined, FAST);
    worker = await startWorker({ env: { ...FAST, REDIS_URL: redisProxy.proxied(process.env.REDIS_URL!) } });
    const items = Array.from({ length: 20 }, (_, i) => ({
      action: 'HTTP_REQUEST',
      executionTime: Date.now() + 300 + i * 100,
      data: { url: receiver.url('/redis-cut-worker') },
    }));
    const ids: string[] = (await api.client.post('/actions/batch', { items })).body.items.map((a: any) => a.id);
    redisProxy.cut();
    await new Promise((resolve) => setTimeout(resolve, 3000));
    redisProxy.restore();
    await waitUntil('all twenty to run', () => completedOnce(ids), 30_000);
    const calls = receiver.callsByIdempotencyKey();
    expect(ids.map((id) => calls.get(`${id}:1`))).toEqual(ids.map(() => 1));
  });
});
