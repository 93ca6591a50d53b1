import { join } from 'node:path';
import { waitUntil } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { AppProcess, WORKER_READY } from './support/app-process';
import { TYPES_WITH_POISON } from './support/poison-worker';

const FAST = { CLAIM_LEASE_MS: '1000', PROMOTE_INTERVAL_MS: '200', OVERDUE_GRACE_MS: '300', MAX_RETRIES: '2' };
const POISON_WORKER = join(__dirname, 'support', 'poison-worker.ts');

/** An attempt that ends in its worker's death counts as failed, so a poison action ends FAILED instead of killing every worker forever. */
describe('Poison pills end', () => {
  let api: ApiTestApp;
  const processes: AppProcess[] = [];

  beforeAll(async () => {
    api = await startCleanApiApp(TYPES_WITH_POISON, FAST);
  });
  afterAll(async () => {
    for (const child of processes) child.kill('SIGKILL');
    await api.close();
  });

  it('an action whose fulfillment kills its worker every time ends FAILED after 1 + MAX_RETRIES attempts', async () => {
    const action = (await api.client.post('/actions', { action: 'TEST_POISON', executionTime: Date.now(), data: { reason: 'kills its worker' } })).body;
    const status = async () => (await api.client.get(`/actions/${action.id}`)).body;
    // Four real worker processes at once: each attempt kills the worker that claims it, and a
    // survivor takes the dead one's attempt over once its claim lapses.
    const workers = Array.from({ length: 4 }, () => new AppProcess('worker', FAST, { entry: POISON_WORKER }));
    processes.push(...workers);
    let deaths = 0;
    for (const worker of workers) void worker.exited.then(() => (deaths += 1));
    await Promise.all(workers.map((worker) => worker.ready(WORKER_READY).catch(() => worker)));
    await waitUntil('the action to end FAILED', async () => (await status()).status === 'FAILED', 60_000, 200);
    const failed = await status();
    expect(failed).toMatchObject({ status: 'FAILED', retryCount: 3, lastError: 'attempt 3 was interrupted (worker lost); no retries left' });
    expect(deaths).toBe(3);
    const history = (await api.client.get(`/actions/${action.id}/history`)).body.map((h: any) => `${h.from}>${h.to}#${h.attempt}`);
    expect(history).toEqual(['null>PENDING#0', 'PENDING>IN_PROGRESS#1', 'IN_PROGRESS>IN_PROGRESS#2', 'IN_PROGRESS>IN_PROGRESS#3', 'IN_PROGRESS>FAILED#3']);
  }, 90_000);
});
