import { INestApplicationContext } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { PunctualClient, PunctualError } from '@punctual/client';
import { PartitionsRepository, RetentionRepository } from '@app/database';
import { HttpReceiver, TEST_KEY, waitUntil } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { holdRetentionLock } from './support/retention-lock';
import { Subscription, deliveriesWhen, subscribe, verifiedEvent } from './support/webhooks';
import { startWorker } from './support/worker-test-app';

/** A held attempt stays pending this long before the worker gives up on it and retries. */
const WEBHOOK_TIMEOUT_MS = '5000';
/** The API's RETENTION_DAYS: the races below call retention with less, so their events, past it, may still be redelivered. */
const RETENTION_DAYS = 30;

describe('Redelivering a webhook delivery', () => {
  let api: ApiTestApp;
  let worker: INestApplicationContext;
  let releaseRetentionLock: () => Promise<void>;
  const receiver = new HttpReceiver();

  beforeAll(async () => {
    await receiver.start();
    api = await startCleanApiApp(undefined, { RETENTION_DAYS: String(RETENTION_DAYS) });
    // Retention purges only when a spec calls it, at the moment it holds a race open.
    releaseRetentionLock = await holdRetentionLock(api);
    worker = await startWorker({ env: { WEBHOOK_TIMEOUT_MS } });
  });
  afterAll(async () => {
    await worker?.close();
    await releaseRetentionLock?.();
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
      [
        404,
        `Delivery ${unknown} of webhook subscription ${subscription.id} not found; retention deletes a delivery with its event once the event is past RETENTION_DAYS`,
      ],
      [
        404,
        `Delivery ${delivery.id} of webhook subscription ${other.id} not found; retention deletes a delivery with its event once the event is past RETENTION_DAYS`,
      ],
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

  describe('while retention purges its event', () => {
    /** A subscription at `path` and a `webhook.test` event of it made `daysAgo`, its delivery stored DELIVERED as a first attempt leaves it. */
    async function deliveredDaysAgo(path: string, daysAgo: number): Promise<{ subscription: Subscription; delivery: string }> {
      const subscription = await subscribe(api.client, receiver.url(path), { events: ['action.failed'] });
      // One transaction: the worker never sees the delivery pending.
      const delivery = await api.db.transaction(async (manager) => {
        const [event] = await manager.query(
          `INSERT INTO webhook_events (tenant_id, type, subscription_id, created_at) VALUES ('default', 'webhook.test', $1, now() - make_interval(days => $2)) RETURNING id`,
          [subscription.id, daysAgo],
        );
        const [[row]] = await manager.query(
          `UPDATE webhook_deliveries SET status = 'DELIVERED', attempts = 1, last_status_code = 200, delivered_at = now(), queued_at = now() WHERE event_id = $1 RETURNING id`,
          [event.id],
        );
        return row.id as string;
      });
      return { subscription, delivery };
    }

    /** The week partitions of the webhook outbox holding `daysAgo`, made or dropped. */
    const weekOf = async (daysAgo: number, change: 'make' | 'drop') => {
      const [{ suffix }] = await api.db.query(
        `SELECT to_char(date_trunc('week', (now() - make_interval(days => $1)) AT TIME ZONE 'UTC'), '"_p"YYYYMMDD') AS suffix`,
        [daysAgo],
      );
      if (change === 'drop') await api.db.query(`DROP TABLE IF EXISTS webhook_deliveries${suffix}, webhook_events${suffix}`);
      else await api.db.query(`SELECT punctual_create_week_partitions(((now() - make_interval(days => $1)) AT TIME ZONE 'UTC')::date)`, [daysAgo]);
      return { deliveries: `webhook_deliveries${suffix}`, events: `webhook_events${suffix}` };
    };

    /** Locks the delivery's row from a session of the spec's own, as a statement in flight would; returns what lets it go. */
    async function lockDelivery(id: string): Promise<() => Promise<void>> {
      const session = api.db.createQueryRunner();
      await session.connect();
      await session.startTransaction();
      await session.query(`SELECT 1 FROM webhook_deliveries WHERE id = $1 FOR UPDATE`, [id]);
      return async () => {
        await session.rollbackTransaction();
        await session.release();
      };
    }

    /** Whether a statement containing `text` waits for a lock in the spec's database. */
    const waitsForLock = async (text: string): Promise<boolean> => {
      const rows: unknown[] = await api.db.query(
        `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid() AND strpos(query, $1) > 0`,
        [text],
      );
      return rows.length > 0;
    };
    /** Whether `promise` has settled, without waiting for it. */
    const settled = (promise: Promise<unknown>) =>
      Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setImmediate(resolve, false))]);

    /** Every delivery whose event is gone: there must never be one. */
    const orphans = () =>
      api.db.query(
        `SELECT d.id FROM webhook_deliveries d WHERE NOT EXISTS (SELECT 1 FROM webhook_events e WHERE e.id = d.event_id AND e.created_at = d.event_created_at)`,
      );

    it('delivers a redelivery under way when the purge of rows reaches its event, and the purge keeps the event', async () => {
      await weekOf(10, 'drop');
      const { subscription, delivery } = await deliveredDaysAgo('/purged-row', 10);
      const [{ part }] = await api.db.query(`SELECT tableoid::regclass::text AS part FROM webhook_deliveries WHERE id = $1`, [delivery]);
      expect(part).toBe('webhook_deliveries_default');

      const release = await lockDelivery(delivery);
      const redelivery = redeliver(subscription.id, delivery);
      await waitUntil('the redelivery to wait for the delivery', () => waitsForLock('attempts_before_redelivery'));
      // Retention of 7 days: the event, 10 days old, is past it.
      const purge = api.app.get(RetentionRepository).purgeUnpartitionedWebhookEvents(7, 100);
      await waitUntil('the purge to end or wait', async () => (await settled(purge)) || waitsForLock('webhook_events_default'));
      await release();

      expect((await redelivery).status).toBe(202);
      await purge;
      const [done] = await deliveriesWhen(api.client, subscription.id, (items) => items[0]?.status === 'DELIVERED' && items[0].attempts === 2);
      expect(done.id).toBe(delivery);
      expect(receiver.callsTo('/purged-row')).toHaveLength(1);
      expect(await orphans()).toEqual([]);
      // Delivered, it goes at the next purge.
      expect(await api.app.get(RetentionRepository).purgeUnpartitionedWebhookEvents(7, 100)).toBe(1);
      expect(await orphans()).toEqual([]);
    });

    it('refuses a redelivery that waited for the purge of its event with 404, saying retention deletes it, and leaves no delivery behind', async () => {
      await weekOf(10, 'drop');
      const { subscription, delivery } = await deliveredDaysAgo('/purged-first', 10);

      const release = await lockDelivery(delivery);
      const purge = api.app.get(RetentionRepository).purgeUnpartitionedWebhookEvents(7, 100);
      await waitUntil('the purge to wait for the delivery', () => waitsForLock('webhook_events_default'));
      const redelivery = redeliver(subscription.id, delivery);
      await waitUntil('the redelivery to wait for the purge', () => waitsForLock('attempts_before_redelivery'));
      await release();

      expect(await purge).toBe(1);
      const answer = await redelivery;
      expect(answer.status).toBe(404);
      expect(answer.body.message).toBe(
        `Delivery ${delivery} of webhook subscription ${subscription.id} not found; retention deletes a delivery with its event once the event is past RETENTION_DAYS`,
      );
      expect(await orphans()).toEqual([]);
      expect((await api.client.get(`/webhooks/${subscription.id}/deliveries`)).body.items).toEqual([]);
      expect(receiver.callsTo('/purged-first')).toHaveLength(0);
    });

    it('keeps a week past retention while a redelivery of it is under way, delivers it, then drops the week', async () => {
      const week = await weekOf(24, 'make');
      const { subscription, delivery } = await deliveredDaysAgo('/purged-week', 24);
      const partitions = worker.get(PartitionsRepository);

      const release = await lockDelivery(delivery);
      const redelivery = redeliver(subscription.id, delivery);
      await waitUntil('the redelivery to wait for the delivery', () => waitsForLock('attempts_before_redelivery'));
      const busy = await partitions.upkeep(14);
      expect(busy.kept).toEqual(expect.arrayContaining([{ partition: week.events, reason: 'busy' }]));
      await release();
      expect((await redelivery).status).toBe(202);

      await deliveriesWhen(api.client, subscription.id, (items) => items[0]?.status === 'DELIVERED' && items[0].attempts === 2);
      expect(receiver.callsTo('/purged-week')).toHaveLength(1);
      expect((await partitions.upkeep(14)).dropped).toEqual(expect.arrayContaining([week.deliveries, week.events]));
      expect(await orphans()).toEqual([]);
    });

    it('refuses with 404 a redelivery of an event past RETENTION_DAYS, so that no redelivery keeps a week from being dropped', async () => {
      // Its week ended more than RETENTION_DAYS ago: the next upkeep drops it.
      const daysAgo = RETENTION_DAYS + 8;
      const week = await weekOf(daysAgo, 'make');
      const { subscription, delivery } = await deliveredDaysAgo('/past-retention', daysAgo);
      const before = await storedDeliveries();

      const answer = await redeliver(subscription.id, delivery);
      expect(answer.status).toBe(404);
      expect(answer.body.message).toBe(
        `Delivery ${delivery} of webhook subscription ${subscription.id} not found; retention deletes a delivery with its event once the event is past RETENTION_DAYS`,
      );
      expect(await storedDeliveries()).toEqual(before);
      expect((await worker.get(PartitionsRepository).upkeep(RETENTION_DAYS)).dropped).toEqual(expect.arrayContaining([week.deliveries, week.events]));
      expect(receiver.callsTo('/past-retention')).toHaveLength(0);
    });
  });
});
