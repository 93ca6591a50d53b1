import { INestApplicationContext } from '@nestjs/common';
import { ExecutionRepository } from '@app/database';
import { Clock, transition } from '@app/domain';
import { HttpReceiver, waitUntil } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { addJobByHand } from './support/queue-state';
import { startWorker } from './support/worker-test-app';

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
    api = await startCleanApiApp();
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
    const { action, calls, history } = await runWithDuplicates('/outlives', '600', () => startWorker({ env: { CLAIM_LEASE_MS: '600' } }));
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

  it('a takeover fences the old holder off: its late outcome is refused', async () => {
    const execution = api.app.get(ExecutionRepository);
    const created = (await api.client.post('/actions', { action: 'HTTP_REQUEST', executionTime: Date.now(), data: { url: receiver.url('/fenced') } }))
      .body;
    const first = await execution.claim(created.id, 0, 100);
    await waitUntil('the first lease to lapse', async () => (await execution.claim(created.id, 0, 60_000)).kind === 'claimed');
    if (first.kind !== 'claimed') throw new Error('the first claim should have won');
    const late = transition(first.action, { type: 'succeeded', now: new Date(), note: 'late' });
    expect(await execution.record(late)).toBeNull();
    expect((await statusOf(created.id)).status).toBe('IN_PROGRESS');
  });
});
