import { INestApplicationContext } from '@nestjs/common';
import { getQueueToken } from '@nestjs/bullmq';
import { Queue } from 'bullmq';
import { WebhookSweepLoop } from '@app/server';
import { HttpReceiver } from '@app/testing';
import { WEBHOOK_QUEUE, webhookJobIdFor } from '@app/webhooks';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { httpRequestExample } from './support/fixtures';
import { runsSinceNow } from './support/loop-runs';
import { deliveriesWhen, subscribe } from './support/webhooks';
import { startWorker } from './support/worker-test-app';

/** The sweep queues only what is an hour late: whatever is delivered here was queued by its own commit. */
const SWEEP_NEVER_DUE = { OVERDUE_GRACE_MS: '3600000', WEBHOOK_BACKOFF_DELAYS_MS: '300,300' };

describe('Webhook deliveries are queued right after the commit that makes them due, not by a sweep', () => {
  let api: ApiTestApp;
  let worker: INestApplicationContext;
  let queue: Queue;
  const receiver = new HttpReceiver();
  const target = new HttpReceiver();

  beforeAll(async () => {
    await Promise.all([receiver.start(), target.start()]);
    api = await startCleanApiApp(undefined, SWEEP_NEVER_DUE);
    worker = await startWorker({ env: SWEEP_NEVER_DUE });
    queue = api.app.get<Queue>(getQueueToken(WEBHOOK_QUEUE));
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await Promise.all([receiver.stop(), target.stop()]);
  });

  it("an outcome's events, and a failed attempt's retry, reach the receiver while the sweep queues nothing", async () => {
    const { id } = await subscribe(api.client, receiver.url('/outcomes'), { events: ['action.succeeded'] });
    receiver.failNext(3, 503);
    const sweptBefore = worker.get(WebhookSweepLoop).runsEnded;
    const items = Array.from({ length: 3 }, () => httpRequestExample(0, { data: { url: target.url() } }));
    const created = await api.client.post('/actions/batch', { items });
    expect(created.status).toBe(201);

    const deliveries = await deliveriesWhen(api.client, id, (all) => all.length === 3 && all.every((d) => d.status === 'DELIVERED'), 30_000);
    // Each failed once (503), then its retry, queued by the record of that failure, succeeded.
    expect(deliveries.map((d) => d.attempts)).toEqual([2, 2, 2]);
    // The sweep ran meanwhile and found nothing an hour late: it queued none of them.
    await runsSinceNow(worker.get(WebhookSweepLoop), 1);
    expect(worker.get(WebhookSweepLoop).runsEnded).toBeGreaterThan(sweptBefore);
  }, 60_000);

  it("a test event's delivery is on the queue when the API answers, and so is a redelivery", async () => {
    const { id } = await subscribe(api.client, receiver.url('/tested'), { events: ['action.failed'] });
    await worker.close();
    try {
      const tested = await api.client.post(`/webhooks/${id}/test`);
      expect(tested.status).toBe(202);
      expect(await queue.getJob(webhookJobIdFor({ id: tested.body.id, attempts: 0 }))).toBeDefined();
    } finally {
      worker = await startWorker({ env: SWEEP_NEVER_DUE });
    }
    const [delivered] = await deliveriesWhen(api.client, id, (all) => all[0]?.status === 'DELIVERED', 30_000);

    await worker.close();
    try {
      const redelivered = await api.client.post(`/webhooks/${id}/deliveries/${delivered.id}/redeliver`);
      expect(redelivered.status).toBe(202);
      expect(await queue.getJob(webhookJobIdFor({ id: delivered.id, attempts: 1 }))).toBeDefined();
    } finally {
      worker = await startWorker({ env: SWEEP_NEVER_DUE });
    }
    await deliveriesWhen(api.client, id, (all) => all[0]?.status === 'DELIVERED' && all[0]?.attempts === 2, 30_000);
    expect(receiver.callsTo('/tested')).toHaveLength(2);
  }, 60_000);
});
