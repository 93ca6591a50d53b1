import { SignedHttp } from '@punctual/client';
import { ActionQueues } from '@app/scheduling';
import { testHttp, waitUntil } from '@app/testing';
import { useProcessStack } from './support/process-stack';
import { API_READY, AppProcess, WORKER_READY } from './support/app-process';
import { freePort } from './support/free-port';
import { tenantWithKey } from './support/admin-api';
import { startWorker } from './support/worker-test-app';

/** Short leases and sweeps so a dead worker's attempt is taken over within seconds. */
const FAST = { CLAIM_LEASE_MS: '1500', PROMOTE_INTERVAL_MS: '200', OVERDUE_GRACE_MS: '1000' };

describe('Processes killed and stopped for real', () => {
  const stack = useProcessStack(FAST);

  const spawnApp = (app: 'api' | 'worker', env: Record<string, string> = {}) => {
    const child = new AppProcess(app, { ...FAST, ...env });
    stack.processes.push(child);
    return child;
  };
  const statusOf = async (id: string) => (await stack.api.client.get(`/actions/${id}`)).body;
  const httpAction = (path: string) => ({ action: 'HTTP_REQUEST', executionTime: Date.now(), data: { url: stack.receiver.url(path), timeoutMs: 60_000 } });

  it('a worker killed with SIGKILL mid-fulfillment: the attempt is taken over, with the same key, and completes once', async () => {
    const victim = await spawnApp('worker').ready(WORKER_READY);
    stack.receiver.holdNext(1); // the first call never gets an answer: the worker is busy when it dies
    const action = (await stack.api.client.post('/actions', httpAction('/crash'))).body;
    await waitUntil('the first call to arrive', () => stack.receiver.callsTo('/crash').length === 1);
    expect((await statusOf(action.id)).status).toBe('IN_PROGRESS');
    victim.kill('SIGKILL');
    expect((await victim.exited).signal).toBe('SIGKILL');

    stack.worker = await startWorker({ env: FAST });
    const done = await waitUntil(
      'the action to complete',
      async () => ((await statusOf(action.id)).status === 'COMPLETED' ? statusOf(action.id) : null),
      20_000,
    );
    expect(done.retryCount).toBe(0);
    const calls = stack.receiver.callsTo('/crash');
    expect(calls.map((c) => c.headers['idempotency-key'])).toEqual([`${action.id}:1`, `${action.id}:1`]);
    const history = (await stack.api.client.get(`/actions/${action.id}/history`)).body;
    expect(history.map((h: any) => `${h.from}>${h.to}`)).toEqual([
      'null>PENDING',
      'PENDING>IN_PROGRESS',
      'IN_PROGRESS>IN_PROGRESS',
      'IN_PROGRESS>COMPLETED',
    ]);
    expect(history[2].note).toMatch(/interrupted/);
  }, 90_000); // a worker or API process boots from the TypeScript sources

  it("a worker killed while holding its tenant's only slot: the slot lapses with its claim, and both actions run, once each", async () => {
    const { id: tenant, key } = await tenantWithKey(stack.api.client.baseUrl, `one-slot-${Date.now().toString(36)}`, { maxConcurrency: 1 });
    const client = new SignedHttp<any>({ baseUrl: stack.api.client.baseUrl, ...key });
    const parked = async () => (await stack.api.app.get(ActionQueues).redis()).zcard(`${process.env.QUEUE_PREFIX}:tenant-slots:{${tenant}}:parked`);
    const victim = await spawnApp('worker').ready(WORKER_READY);
    stack.receiver.holdNext(1);
    const held = (await client.post('/actions', httpAction('/slot-held'))).body;
    await waitUntil('the first call to arrive', () => stack.receiver.callsTo('/slot-held').length === 1);
    const waiting = (await client.post('/actions', httpAction('/slot-parked'))).body;
    await waitUntil('the second action to be parked', async () => (await parked()) === 1);
    victim.kill('SIGKILL');
    await victim.exited;

    stack.worker = await startWorker({ env: FAST });
    await waitUntil(
      'both actions to complete',
      async () =>
        (await client.get(`/actions/${held.id}`)).body.status === 'COMPLETED' && (await client.get(`/actions/${waiting.id}`)).body.status === 'COMPLETED',
      30_000,
    );
    expect(stack.receiver.callsTo('/slot-held').map((c) => c.headers['idempotency-key'])).toEqual([`${held.id}:1`, `${held.id}:1`]);
    expect(stack.receiver.callsTo('/slot-parked').map((c) => c.headers['idempotency-key'])).toEqual([`${waiting.id}:1`]);
  }, 90_000); // a worker or API process boots from the TypeScript sources

  it('SIGTERM to a worker finishes the running fulfillments, then exits 0 with nothing left IN_PROGRESS', async () => {
    const stopping = await spawnApp('worker').ready(WORKER_READY);
    stack.receiver.delayNext(5, 1000);
    const items = Array.from({ length: 5 }, () => httpAction('/graceful'));
    const ids: string[] = (await stack.api.client.post('/actions/batch', { items })).body.items.map((a: any) => a.id);
    await waitUntil('all five calls to be in flight', () => stack.receiver.callsTo('/graceful').length === 5);
    stopping.kill('SIGTERM');
    expect(await stopping.exited).toEqual({ code: 0, signal: null });
    const rows = await stack.api.db.query(`SELECT status, count(*)::int AS n FROM actions WHERE id = ANY($1) GROUP BY status`, [ids]);
    expect(rows).toEqual([{ status: 'COMPLETED', n: 5 }]);
  }, 90_000); // a worker or API process boots from the TypeScript sources

  it('the API killed with SIGKILL right after answering creates: every action still runs exactly once', async () => {
    stack.worker = await startWorker({ env: FAST });
    const ids: string[] = [];
    for (let round = 0; round < 3; round += 1) {
      const port = await freePort();
      const child = await spawnApp('api', { PORT: port }).ready(API_READY);
      const client = testHttp(`http://127.0.0.1:${port}`);
      const created = await Promise.all(Array.from({ length: 5 }, () => client.post('/actions', httpAction('/api-killed'))));
      child.kill('SIGKILL');
      ids.push(...created.map((r) => r.body.id));
    }
    await waitUntil(
      'all 15 to complete',
      async () => {
        const [row] = await stack.api.db.query(`SELECT count(*)::int AS n FROM actions WHERE id = ANY($1) AND status = 'COMPLETED'`, [ids]);
        return row.n === ids.length;
      },
      20_000,
    );
    const calls = stack.receiver.callsByIdempotencyKey();
    expect(ids.map((id) => calls.get(`${id}:1`))).toEqual(ids.map(() => 1));
  }, 90_000); // three API processes boot from the TypeScript sources, one after another

  it('SIGTERM to the API answers the request in flight, then exits 0', async () => {
    const port = await freePort();
    const child = await spawnApp('api', { PORT: port }).ready(API_READY);
    const client = testHttp(`http://127.0.0.1:${port}`);
    const items = Array.from({ length: 1000 }, () => ({ ...httpAction('/never'), executionTime: Date.now() + 86_400_000 }));
    const nonces = async () => (await stack.api.db.query(`SELECT count(*)::int AS n FROM accepted_nonces`))[0].n as number;
    const noncesBefore = await nonces();
    const inFlight = client.post('/actions/batch', { items });
    // The API accepted the request once its nonce is recorded, before it stores the batch: the signal stops it mid-request.
    await waitUntil('the API to have taken the request', async () => (await nonces()) > noncesBefore, 20_000, 5);
    child.kill('SIGTERM');
    expect((await inFlight).status).toBe(201);
    expect(await child.exited).toEqual({ code: 0, signal: null });
  }, 90_000); // a worker or API process boots from the TypeScript sources
});
