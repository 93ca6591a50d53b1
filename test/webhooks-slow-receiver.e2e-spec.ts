import { INestApplicationContext } from '@nestjs/common';
import { HttpReceiver, waitUntil } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { httpRequestExample } from './support/fixtures';
import { deliveriesWhen, subscribe } from './support/webhooks';
import { startWorker } from './support/worker-test-app';

describe('A receiver that hangs', () => {
  let api: ApiTestApp;
  /** Two workers: a receiver's limit holds across the fleet, not per worker. */
  let workers: INestApplicationContext[] = [];
  const hanging = new HttpReceiver();
  const healthy = new HttpReceiver();
  const target = new HttpReceiver();
  const slow = new HttpReceiver();

  beforeAll(async () => {
    await Promise.all([hanging.start(), healthy.start(), target.start(), slow.start()]);
    api = await startCleanApiApp();
    const env = {
      WEBHOOK_TIMEOUT_MS: '300',
      WEBHOOK_CONCURRENCY: '6',
      WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION: '2',
      WEBHOOK_BACKOFF_DELAYS_MS: '200,200,200',
    };
    workers = [await startWorker({ env }), await startWorker({ env })];
  });
  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.close()));
    await api?.close();
    await Promise.all([hanging.stop(), healthy.stop(), target.stop(), slow.stop()]);
  });

  it('times out and retries its deliveries, while actions keep firing on time and other receivers get theirs', async () => {
    hanging.holdNext(1_000_000);
    const stuck = await subscribe(api.client, hanging.url(), { events: ['action.succeeded'] });
    const fine = await subscribe(api.client, healthy.url(), { events: ['action.succeeded'] });
    const dueAt = Date.now() + 1500;
    const items = Array.from({ length: 20 }, () => httpRequestExample(0, { executionTime: dueAt, data: { url: target.url() } }));
    expect((await api.client.post('/actions/batch', { items })).status).toBe(201);

    await waitUntil('all 20 actions to run', () => target.calls.length === 20);
    const lateness = target.calls.map((call) => call.at - dueAt);
    expect(Math.min(...lateness)).toBeGreaterThanOrEqual(0);
    // On time: a hanging receiver holds webhook slots only, never an action's.
    expect(Math.max(...lateness)).toBeLessThan(1500);

    const delivered = await deliveriesWhen(api.client, fine.id, (list) => list.length === 20 && list.every((d) => d.status === 'DELIVERED'), 20_000);
    expect(delivered).toHaveLength(20);
    const retried = await deliveriesWhen(api.client, stuck.id, (list) => list.length === 20 && list.some((d) => d.attempts >= 2), 20_000);
    const timedOut = retried.find((d) => d.attempts >= 2)!;
    expect(timedOut.status).not.toBe('DELIVERED');
    expect(timedOut.lastError).toMatch(/300 ms|timed out|timeout/i);
  }, 60_000);

  it('sends one receiver at most WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION attempts at once across every worker, and all of its deliveries', async () => {
    // Answered, slowly: the receiver counts a call done before the worker sees its answer, so its peak never counts a finished call.
    slow.delayNext(1_000_000, 100);
    const subscription = await subscribe(api.client, slow.url(), { events: ['action.succeeded'] });
    const items = Array.from({ length: 20 }, () => httpRequestExample(0, { executionTime: Date.now(), data: { url: target.url('/slow-case') } }));
    expect((await api.client.post('/actions/batch', { items })).status).toBe(201);

    const delivered = await deliveriesWhen(
      api.client,
      subscription.id,
      (list) => list.length === 20 && list.every((d) => d.status === 'DELIVERED'),
      30_000,
    );
    expect(delivered.every((d) => d.attempts === 1)).toBe(true);
    expect(slow.calls).toHaveLength(20);
    expect(slow.peakInFlight('/hook')).toBeLessThanOrEqual(2);
  }, 60_000);
});
