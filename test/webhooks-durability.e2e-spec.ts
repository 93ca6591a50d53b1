import { INestApplicationContext } from '@nestjs/common';
import Redis from 'ioredis';
import { HttpReceiver, waitUntil } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { AppProcess, WORKER_READY } from './support/app-process';
import { httpRequestExample } from './support/fixtures';
import { deliveriesWhen, subscribe, verifiedEvent } from './support/webhooks';
import { startWorker } from './support/worker-test-app';

/** Short sweeps so a lost delivery job is queued again within a second. */
const FAST = { PROMOTE_INTERVAL_MS: '200', OVERDUE_GRACE_MS: '500', CLAIM_LEASE_MS: '1500' };

describe('Webhook deliveries survive dying workers and a flushed Redis', () => {
  let api: ApiTestApp;
  let worker: INestApplicationContext | undefined;
  const processes: AppProcess[] = [];
  const receiver = new HttpReceiver();
  const target = new HttpReceiver();

  beforeAll(async () => {
    await Promise.all([receiver.start(), target.start()]);
    api = await startCleanApiApp(undefined, FAST);
  });
  afterEach(async () => {
    for (const child of processes.splice(0)) child.kill('SIGKILL');
    await worker?.close();
    worker = undefined;
  });
  afterAll(async () => {
    await api?.close();
    await Promise.all([receiver.stop(), target.stop()]);
  });

  const runActions = async (count: number): Promise<string[]> => {
    const items = Array.from({ length: count }, () => httpRequestExample(0, { data: { url: target.url() } }));
    const res = await api.client.post('/actions/batch', { items });
    expect(res.status).toBe(201);
    return res.body.items.map((a: { id: string }) => a.id);
  };

  it('a worker killed after the change committed, in the middle of the delivery: the next worker delivers the event', async () => {
    const { id, secret } = await subscribe(api.client, receiver.url('/killed'), { events: ['action.succeeded'] });
    // A short timeout: the dead worker's claim on the delivery, and its job's lock, lapse a few seconds after it dies.
    const env = { ...FAST, WEBHOOK_TIMEOUT_MS: '3000' };
    const victim = new AppProcess('worker', env);
    processes.push(victim);
    // A process of its own, compiled as it starts: on a busy machine that takes a while.
    await victim.ready(WORKER_READY, 90_000);
    receiver.holdNext(1); // the worker is waiting for this answer when it dies
    const [actionId] = await runActions(1);
    await waitUntil('the first delivery attempt', () => receiver.callsTo('/killed').length === 1);
    victim.kill('SIGKILL');
    expect((await victim.exited).signal).toBe('SIGKILL');
    expect((await api.client.get(`/actions/${actionId}`)).body.status).toBe('COMPLETED');

    worker = await startWorker({ env });
    const [delivery] = await deliveriesWhen(api.client, id, (items) => items[0]?.status === 'DELIVERED', 20_000);
    expect(delivery).toMatchObject({ actionId, attempts: 1, lastStatusCode: 200 });
    const calls = receiver.callsTo('/killed');
    expect(calls).toHaveLength(2);
    // The same event both times: a receiver drops the duplicate by its webhook-id.
    expect(calls[0].headers['webhook-id']).toBe(calls[1].headers['webhook-id']);
    expect(verifiedEvent(calls[1], secret).data.action.id).toBe(actionId);
  }, 150_000);

  it('Redis flushed while deliveries wait for their retry: every event is still delivered', async () => {
    const { id } = await subscribe(api.client, receiver.url('/flushed'), { events: ['action.succeeded'] });
    const env = { ...FAST, WEBHOOK_BACKOFF_DELAYS_MS: '1000,1000,1000' };
    worker = await startWorker({ env });
    receiver.failNext(1000, 503);
    const actionIds = await runActions(5);
    await deliveriesWhen(api.client, id, (items) => items.length === 5 && items.every((d) => d.attempts >= 1));
    await worker.close();
    worker = undefined;

    const redis = new Redis(process.env.REDIS_URL!);
    await redis.flushdb();
    redis.disconnect();
    receiver.failNext(0);

    worker = await startWorker({ env });
    const deliveries = await deliveriesWhen(api.client, id, (items) => items.length === 5 && items.every((d) => d.status === 'DELIVERED'), 20_000);
    expect(deliveries.map((d) => d.actionId).sort()).toEqual([...actionIds].sort());
    const delivered = receiver.callsTo('/flushed').filter((_call, index, calls) => index >= calls.length - 5);
    expect(new Set(delivered.map((c) => c.headers['webhook-id'])).size).toBe(5);
  }, 60_000);
});
