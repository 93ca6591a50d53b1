import { INestApplicationContext } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { PunctualClient, PunctualError } from '@punctual/client';
import { HttpReceiver, TEST_KEY, waitUntil } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { Subscription, deliveriesWhen, subscribe, verifiedEvent } from './support/webhooks';
import { startWorker } from './support/worker-test-app';

/** A held attempt stays pending this long before the worker gives up on it and retries. */
const WEBHOOK_TIMEOUT_MS = '5000';

describe('Redelivering a webhook delivery', () => {
  let api: ApiTestApp;
  let worker: INestApplicationContext;
  const receiver = new HttpReceiver();

  beforeAll(async () => {
    await receiver.start();
    api = await startCleanApiApp();
    worker = await startWorker({ env: { WEBHOOK_TIMEOUT_MS } });
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await receiver.stop();
  });
  beforeEach(async () => {
    await api.db.query('TRUNCATE webhook_subscriptions, webhook_events, webhook_deliveries');
    receiver.calls.length = 0;
    receiver.failNext(0);
  });

  const redeliver = (webhookId: string, deliveryId: string, options?: { unsigned?: boolean; secret?: string }) =>
    api.client.post(`/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`, undefined, options);

  /** Every delivery row as stored, to show that a refused request changed none of them. */
  const storedDeliveries = () =>
    api.db.query(
      `SELECT id, status, attempts, next_attempt_at, queued_at, claimed_until, last_status_code, last_error, delivered_at FROM webhook_deliveries ORDER BY id`,
    );

  /** A subscription at `path` and its `webhook.test` delivery, once that is DELIVERED. */
  async function delivered(path: string): Promise<{ subscription: Subscription; delivery: any }> {
    const subscription = await subscribe(api.client, receiver.url(path), { events: ['action.failed'] });
    expect((await api.client.post(`/webhooks/${subscription.id}/test`)).status).toBe(202);
    const [delivery] = await deliveriesWhen(api.client, subscription.id, (items) => items[0]?.status === 'DELIVERED');
    return { subscription, delivery };
  }

  it('sends a FAILED delivery again once the receiver is fixed, with the same webhook-id, until DELIVERED', async () => {
    const { id, secret } = await subscribe(api.client, receiver.url('/failing'), { events: ['action.failed'] });
    receiver.failNext(1000, 500, 'receiver is down');
    expect((await api.client.post(`/webhooks/${id}/test`)).status).toBe(202);
    // Two delays in the test settings: three attempts, then FAILED.
    const [failed] = await deliveriesWhen(api.client, id, (items) => items[0]?.status === 'FAILED');
    expect(failed).toMatchObject({ attempts: 3, lastStatusCode: 500, deliveredAt: null });
    const [first] = receiver.callsTo('/failing');
    receiver.failNext(0);

    const res = await redeliver(id, failed.id);
    expect(res.status).toBe(202);
    // The delivery as the list shows it, pending again; its last attempt's answer stays until the next one ends.
    expect(res.body).toEqual({ ...failed, status: 'PENDING' });

    const [done] = await deliveriesWhen(api.client, id, (items) => items[0]?.status === 'DELIVERED');
    expect(done).toMatchObject({ id: failed.id, attempts: 4, lastStatusCode: 200, lastError: null, deliveredAt: expect.any(String) });
    const calls = receiver.callsTo('/failing');
    expect(calls).toHaveLength(4);
    expect(calls.map((call) => call.headers['webhook-id'])).toEqual(Array(4).fill(first.headers['webhook-id']));
    expect(calls[3].body).toBe(first.body);
    expect(verifiedEvent(calls[3], secret).type).toBe('webhook.test');
  });

  it('retries a failing redelivery on every delay again, from its start: a fresh set of retries', async () => {
    const { id } = await subscribe(api.client, receiver.url('/down'), { events: ['action.failed'] });
    receiver.failNext(1000, 503);
    expect((await api.client.post(`/webhooks/${id}/test`)).status).toBe(202);
    const [failed] = await deliveriesWhen(api.client, id, (items) => items[0]?.status === 'FAILED');

    expect(failed.attempts).toBe(3); // the first attempt and WEBHOOK_BACKOFF_DELAYS_MS's two retries
    expect((await redeliver(id, failed.id)).status).toBe(202);
    // The redelivery gets the same schedule again: one attempt and two retries, then FAILED.
    const [again] = await deliveriesWhen(api.client, id, (items) => items[0]?.status === 'FAILED' && items[0].attempts > failed.attempts);
    expect(again).toMatchObject({ attempts: 6, lastStatusCode: 503 });
    expect(receiver.callsTo('/down')).toHaveLength(6);
  });

  it('sends a DELIVERED delivery again with the same webhook-id, through the typed client', async () => {
    const { subscription, delivery } = await delivered('/delivered');
    const punctual = PunctualClient.overHttp({ baseUrl: api.client.baseUrl, ...TEST_KEY });

    const queued = await punctual.webhooks.redeliver(subscription.id, delivery.id);
    expect(queued).toEqual({ ...delivery, status: 'PENDING', deliveredAt: null });

    const [done] = await deliveriesWhen(api.client, subscription.id, (items) => items[0]?.attempts === 2 && items[0].status === 'DELIVERED');
    expect(done).toMatchObject({ id: delivery.id, lastStatusCode: 200 });
    const calls = receiver.callsTo('/delivered');
    expect(calls).toHaveLength(2);
    expect(calls[1].headers['webhook-id']).toBe(calls[0].headers['webhook-id']);
    expect(verifiedEvent(calls[1], subscription.secret).type).toBe('webhook.test');
    // A refusal is a PunctualError with the status.
    const refusal = await punctual.webhooks.redeliver(subscription.id, randomUUID()).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(PunctualError);
    expect((refusal as PunctualError).statusCode).toBe(404);
  });

  it('refuses a delivery that is still PENDING with 409 and changes nothing; it is retried on its own', async () => {
    const { id } = await subscribe(api.client, receiver.url('/held'), { events: ['action.failed'] });
    receiver.holdNext(1);
    const delivery = (await api.client.post(`/webhooks/${id}/test`)).body;
    // The worker waits for the receiver's answer: the delivery is pending until it gives up.
    await waitUntil('the first attempt', () => receiver.callsTo('/held').length === 1);
    const before = await storedDeliveries();

    const res = await redeliver(id, delivery.id);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(`Delivery ${delivery.id} is still pending; it is retried on its own. Redeliver it once it is DELIVERED or FAILED`);
    expect(await storedDeliveries()).toEqual(before);

    const [done] = await deliveriesWhen(api.client, id, (items) => items[0]?.status === 'DELIVERED', 20_000);
    expect(done.attempts).toBe(2);
    expect(receiver.callsTo('/held')).toHaveLength(2);
  });

  it('answers 404 for an unknown subscription, an unknown delivery, or a delivery of another subscription, and changes nothing', async () => {
    const { subscription, delivery } = await delivered('/mine');
    const other = await subscribe(api.client, receiver.url('/other'), { events: ['action.failed'] });
    const before = await storedDeliveries();
    const unknown = randomUUID();

    const answers = await Promise.all([redeliver(unknown, delivery.id), redeliver(subscription.id, unknown), redeliver(other.id, delivery.id)]);
    expect(answers.map((a) => [a.status, a.body.message])).toEqual([
      [404, `Webhook subscription ${unknown} not found`],
      [404, `Delivery ${unknown} of webhook subscription ${subscription.id} not found`],
      [404, `Delivery ${delivery.id} of webhook subscription ${other.id} not found`],
    ]);
    expect(await storedDeliveries()).toEqual(before);
    expect(receiver.calls).toHaveLength(1);
  });

  it('answers 400 for an id that is not a UUID and 401 without a valid signature, and changes nothing', async () => {
    const { subscription, delivery } = await delivered('/guarded');
    const before = await storedDeliveries();

    const answers = await Promise.all([
      redeliver('42', delivery.id),
      redeliver(subscription.id, 'not-a-uuid'),
      redeliver(subscription.id, delivery.id, { unsigned: true }),
      redeliver(subscription.id, delivery.id, { secret: 'a-wrong-secret-0123456789' }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([400, 400, 401, 401]);
    expect(answers.slice(0, 2).map((a) => a.body.message)).toEqual(['id must be a UUID', 'deliveryId must be a UUID']);
    expect(await storedDeliveries()).toEqual(before);
    expect(receiver.calls).toHaveLength(1);
  });

  it('queues the delivery once for two redeliveries at the same time: one 202, one 409, one more copy', async () => {
    const { subscription, delivery } = await delivered('/concurrent');

    const answers = await Promise.all([redeliver(subscription.id, delivery.id), redeliver(subscription.id, delivery.id)]);
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409]);

    // DELIVERED is final: with the one extra attempt recorded, no other copy can follow.
    const [done] = await deliveriesWhen(api.client, subscription.id, (items) => items[0]?.status === 'DELIVERED' && items[0].attempts > 1);
    expect(done.attempts).toBe(2);
    const calls = receiver.callsTo('/concurrent');
    expect(calls).toHaveLength(2);
    expect(calls[1].headers['webhook-id']).toBe(calls[0].headers['webhook-id']);
  });
});
