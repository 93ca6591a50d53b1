import { INestApplicationContext } from '@nestjs/common';
import { Client } from 'pg';
import { LifecycleStore } from '@app/database';
import { Clock, transition } from '@app/domain';
import { HttpReceiver, waitUntil } from '@app/testing';
import { BUILT_IN_FULFILLMENT_MODULES } from '@app/built-in-actions';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { addJobByHand } from './support/queue-state';
import { TYPES_WITH_WAIT, WaitModule, stops } from './support/waiting-worker';
import { startWorker } from './support/worker-test-app';
import { catchUp } from '../libs/domain/src/lifecycle/lifecycle.cases';

/**
 * Two attempts of one occurrence never run at once: a running attempt renews its claim on
 * Postgres's clock, so neither a duplicate job nor a worker with a wrong clock can take it over.
 * One worker (concurrency 1) is busy with the attempt; another gets the duplicates.
 */
describe('A running attempt keeps its claim', () => {
  const receiver = new HttpReceiver();
  let api: ApiTestApp;
  const workers: INestApplicationContext[] = [];

  beforeAll(async () => {
    await receiver.start();
    api = await startCleanApiApp(TYPES_WITH_WAIT);
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.close()));
  });
  afterAll(async () => {
    await api.close();
    await receiver.stop();
  });

  const statusOf = async (id: string) => (await api.client.get(`/actions/${id}`)).body;
  const historyOf = async (id: string) => (await api.client.get(`/actions/${id}/history`)).body as { from: string; to: string }[];

  async function runWithDuplicates(path: string, lease: string, duplicateWorker: () => Promise<INestApplicationContext>) {
    workers.push(await startWorker({ env: { CLAIM_LEASE_MS: lease, WORKER_CONCURRENCY: '1' } }));
    receiver.delayNext(1, 2500);
    const action = (
      await api.client.post('/actions', { action: 'HTTP_REQUEST', executionTime: Date.now(), data: { url: receiver.url(path), timeoutMs: 20_000 } })
    ).body;
    await waitUntil('the attempt to start', () => receiver.callsTo(path).length === 1);
    workers.push(await duplicateWorker());
    for (let copy = 1; copy <= 3; copy += 1) await addJobByHand(api.app, action, `dup-${path.slice(1)}-${copy}`);
    const done = await waitUntil(
      'the action to complete',
      async () => ((await statusOf(action.id)).status === 'COMPLETED' ? statusOf(action.id) : null),
      15_000,
    );
    return { action: done, calls: receiver.callsTo(path), history: await historyOf(action.id) };
  }

  it('an attempt that outlives its lease is not taken over by duplicate jobs meanwhile: one call', async () => {
    const { action, calls, history } = await runWithDuplicates('/outlives', '1500', () => startWorker({ env: { CLAIM_LEASE_MS: '1500' } }));
    expect(calls).toHaveLength(1);
    expect(action.retryCount).toBe(0);
    expect(history.map((h) => `${h.from}>${h.to}`)).toEqual(['null>PENDING', 'PENDING>IN_PROGRESS', 'IN_PROGRESS>COMPLETED']);
  });

  it('a worker whose clock runs 60 s ahead never takes over a live claim', async () => {
    const ahead = { now: () => new Date(Date.now() + 60_000) };
    const { calls, history } = await runWithDuplicates('/skewed', '30000', () => startWorker({ overrides: [{ provide: Clock, useValue: ahead }] }));
    expect(calls).toHaveLength(1);
    expect(history.filter((h) => h.to === 'IN_PROGRESS')).toHaveLength(1);
  });

  it('a renewal that hangs stops the attempt before its lease runs out, so no other worker can take it over meanwhile', async () => {
    // The renewal waits on a row lock instead of failing: only the time without a renewal can tell.
    const env = { CLAIM_LEASE_MS: '6000', DATABASE_STATEMENT_TIMEOUT_MS: '0' };
    workers.push(await startWorker({ env, actionTypes: TYPES_WITH_WAIT, fulfillmentModules: [...BUILT_IN_FULFILLMENT_MODULES, WaitModule] }));
    const action = (await api.client.post('/actions', { action: 'TEST_WAIT', executionTime: Date.now(), data: { ignoreSignal: false } })).body;
    await waitUntil('the attempt to start', async () => (await statusOf(action.id)).status === 'IN_PROGRESS');
    const locker = new Client({ connectionString: process.env.DATABASE_URL });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('SELECT 1 FROM actions WHERE id = $1 FOR UPDATE', [action.id]);
      const stop = await waitUntil('the attempt to be stopped', () => stops.find((s) => s.idempotencyKey === `${action.id}:1`), 15_000);
      const [row] = await api.db.query('SELECT claimed_until FROM actions WHERE id = $1', [action.id]);
      expect(stop.at).toBeLessThan(new Date(row.claimed_until).getTime());
      expect(stop.reason).toMatch(/^attempt stopped: its claim could not be renewed for 4800 ms \(a renewal is still waiting for Postgres\)$/);
    } finally {
      await locker.end();
    }
    const history = await waitUntil('the stopped attempt to be recorded', async () => {
      const entries = await historyOf(action.id);
      return entries.length >= 3 ? entries : null;
    });
    expect(history[2]).toMatchObject({
      from: 'IN_PROGRESS',
      to: 'PENDING',
      note: expect.stringMatching(/^attempt stopped: its claim could not be renewed/),
    });
  });

  it('a takeover fences the old holder off: its late outcome is refused', async () => {
    const store = api.app.get(LifecycleStore);
    const created = (await api.client.post('/actions', { action: 'HTTP_REQUEST', executionTime: Date.now(), data: { url: receiver.url('/fenced') } }))
      .body;
    const first = await store.claim(created.id, 0, 'HTTP_REQUEST', 100);
    await waitUntil('the first lease to lapse', async () => (await store.claim(created.id, 0, 'HTTP_REQUEST', 60_000)).kind === 'claimed');
    if (first.kind !== 'claimed') throw new Error('the first claim should have won');
    const late = transition(first.action, { type: 'succeeded', now: new Date(), note: 'late', catchUp });
    expect(await store.persist(late, { kind: 'claim' })).toBeNull();
    expect((await statusOf(created.id)).status).toBe('IN_PROGRESS');
  });
});
