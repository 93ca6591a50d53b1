import { INestApplicationContext } from '@nestjs/common';
import { getQueueToken } from '@nestjs/bullmq';
import { Queue } from 'bullmq';
import { LookupAddress } from 'node:dns';
import { randomUUID } from 'node:crypto';
import { HostResolver } from '@app/outbound';
import { WEBHOOK_QUEUE } from '@app/webhooks';
import { SignedHttp } from '@punctual/client';
import { HttpReceiver, OTHER_TENANT_KEY, TEST_KEY, waitUntil } from '@app/testing';
import { httpRequestExample, notificationExample } from './support/fixtures';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { deliveriesWhen, subscribe, verifiedEvent } from './support/webhooks';
import { startWorker, workerHttpUrl } from './support/worker-test-app';
import { runsSinceNow } from './support/loop-runs';
import { WebhookSweepLoop } from '@app/server';

const EVERY_ACTION_EVENT = ['action.succeeded', 'action.attempt_failed', 'action.failed', 'action.no_action'];

async function webhookRows(api: ApiTestApp): Promise<{ subscriptions: number; events: number; deliveries: number }> {
  const [row] = await api.db.query(
    `SELECT (SELECT count(*) FROM webhook_subscriptions)::int AS subscriptions, (SELECT count(*) FROM webhook_events)::int AS events,
            (SELECT count(*) FROM webhook_deliveries)::int AS deliveries`,
  );
  return row;
}

describe('Lifecycle webhooks', () => {
  let api: ApiTestApp;
  let worker: INestApplicationContext;
  const receiver = new HttpReceiver();
  const target = new HttpReceiver();

  beforeAll(async () => {
    await Promise.all([receiver.start(), target.start()]);
    api = await startCleanApiApp();
    // internal.test resolves inside, as a rebinding attacker's name would; every other name is not found.
    const resolver = {
      resolve: async (hostName: string): Promise<LookupAddress[]> => {
        if (hostName !== 'internal.test') throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostName}`), { code: 'ENOTFOUND' });
        return [{ address: '10.1.2.3', family: 4 }];
      },
    };
    worker = await startWorker({ overrides: [{ provide: HostResolver, useValue: resolver }] });
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await Promise.all([receiver.stop(), target.stop()]);
  });
  beforeEach(async () => {
    await api.db.query('TRUNCATE webhook_subscriptions, webhook_events, webhook_deliveries');
    receiver.calls.length = 0;
  });

  const runAction = async (overrides: Record<string, unknown> = {}) => {
    const res = await api.client.post('/actions', httpRequestExample(0, { data: { url: target.url() }, ...overrides }));
    expect(res.status).toBe(201);
    return res.body.id as string;
  };

  describe('subscriptions', () => {
    it('shows the secret once, lists and reads without it, and deletes', async () => {
      const created = await api.client.post('/webhooks', { url: receiver.url(), events: ['action.failed'], description: 'alerts' });
      expect(created.status).toBe(201);
      // The answer holds the secret: no cache along the way may keep it.
      expect(created.headers.get('cache-control')).toBe('no-store');
      expect(created.body).toEqual({
        id: expect.any(String),
        url: receiver.url(),
        events: ['action.failed'],
        actionTypes: null,
        description: 'alerts',
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
        createdAt: expect.any(String),
      });
      const { secret, ...shown } = created.body;
      expect((await api.client.get(`/webhooks/${shown.id}`)).body).toEqual(shown);
      expect((await api.client.get('/webhooks')).body).toEqual({ items: [shown] });
      // At rest the secret is encrypted: neither it nor its key bytes are stored in the clear.
      const [stored] = await api.db.query('SELECT secret_ciphertext FROM webhook_subscriptions');
      expect(stored.secret_ciphertext).not.toContain(secret.slice(6));

      expect((await api.client.delete(`/webhooks/${shown.id}`)).status).toBe(204);
      expect((await api.client.get(`/webhooks/${shown.id}`)).status).toBe(404);
      expect((await api.client.delete(`/webhooks/${shown.id}`)).status).toBe(404);
    });

    it.each<[string, Record<string, unknown>, RegExp]>([
      ['no events', { url: 'https://example.com/h', events: [] }, /events must list at least one event type/],
      ['no events field', { url: 'https://example.com/h' }, /events/],
      ['an unknown event type', { url: 'https://example.com/h', events: ['action.exploded'] }, /each value in events must be one of action.succeeded/],
      ['an event type twice', { url: 'https://example.com/h', events: ['action.failed', 'action.failed'] }, /must not list a type twice/],
      ['an ftp:// URL', { url: 'ftp://example.com/h', events: ['action.failed'] }, /url must be an https:\/\/, http:\/\/ or mailto: URL/],
      ['no URL', { events: ['action.failed'] }, /url/],
      ['a URL that is not one', { url: 'not a url', events: ['action.failed'] }, /url must be/],
      [
        'the cloud metadata address',
        { url: 'http://169.254.169.254/latest', events: ['action.failed'] },
        /url is not an allowed destination: 169.254.169.254 is a link-local/,
      ],
      ['a private address', { url: 'https://10.0.0.7/h', events: ['action.failed'] }, /not an allowed destination: 10.0.0.7 is a private/],
      ['a mailto: with smuggled headers', { url: 'mailto:ops@example.com?bcc=all@example.com', events: ['action.failed'] }, /url must be/],
      ['a mailto: without SMTP_URL', { url: 'mailto:ops@example.com', events: ['action.failed'] }, /need SMTP_URL/],
      [
        'an unknown action type',
        { url: 'https://example.com/h', events: ['action.failed'], actionTypes: ['NOPE'] },
        /unknown type NOPE; known types are GRPC, HTTP_REQUEST/,
      ],
      [
        'an empty action type list',
        { url: 'https://example.com/h', events: ['action.failed'], actionTypes: [] },
        /actionTypes must list at least one type/,
      ],
      ['a URL over 2048 characters', { url: `https://example.com/${'a'.repeat(2048)}`, events: ['action.failed'] }, /at most 2048 characters/],
      ['a NUL in the description', { url: 'https://example.com/h', events: ['action.failed'], description: 'a\u0000b' }, /description/],
      ['an unknown field', { url: 'https://example.com/h', events: ['action.failed'], secret: 'whsec_mine' }, /property secret should not exist/],
      ['null events', { url: 'https://example.com/h', events: null }, /events/],
    ])('refuses %s with 400 and stores nothing', async (_name, body, message) => {
      const res = await api.client.post('/webhooks', body);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body.message)).toMatch(message);
      expect(await webhookRows(api)).toEqual({ subscriptions: 0, events: 0, deliveries: 0 });
    });

    it('keeps at most 100 subscriptions, and says so with 409', async () => {
      await api.db.query(
        `INSERT INTO webhook_subscriptions (id, tenant_id, url, events, secret_ciphertext)
         SELECT gen_random_uuid(), 'default', 'https://example.com/' || n, ARRAY['action.failed'], 'v1.x' FROM generate_series(1, 99) AS n`,
      );
      expect((await api.client.post('/webhooks', { url: receiver.url(), events: ['action.failed'] })).status).toBe(201);
      const refused = await api.client.post('/webhooks', { url: receiver.url(), events: ['action.failed'] });
      expect(refused.status).toBe(409);
      expect(refused.body.message).toMatch(/already 100 webhook subscriptions.*delete one/);
      expect((await webhookRows(api)).subscriptions).toBe(100);
    });

    it("keeps at most 100 per tenant also when many creates arrive at once, and counts only the tenant's own", async () => {
      await api.db.query(
        `INSERT INTO webhook_subscriptions (id, tenant_id, url, events, secret_ciphertext)
         SELECT gen_random_uuid(), 'default', 'https://example.com/' || n, ARRAY['action.failed'], 'v1.x' FROM generate_series(1, 95) AS n`,
      );
      const answers = await Promise.all(
        Array.from({ length: 30 }, () => api.client.post('/webhooks', { url: receiver.url(), events: ['action.failed'] })),
      );
      expect(answers.filter((answer) => answer.status === 201)).toHaveLength(5);
      expect(answers.filter((answer) => answer.status === 409)).toHaveLength(25);
      const [{ count }] = await api.db.query(`SELECT count(*)::int AS count FROM webhook_subscriptions WHERE tenant_id = 'default'`);
      expect(count).toBe(100);
      // Another tenant's subscriptions are its own to count.
      const otherTenant = new SignedHttp<any>({ baseUrl: api.client.baseUrl, ...OTHER_TENANT_KEY });
      expect((await otherTenant.post('/webhooks', { url: receiver.url(), events: ['action.failed'] })).status).toBe(201);
    });

    it('requires a signature on every route, and 400 for an id that is not a UUID', async () => {
      const { id } = await subscribe(api.client, receiver.url());
      const unsigned = { unsigned: true };
      const answers = await Promise.all([
        api.client.post('/webhooks', { url: receiver.url(), events: ['action.failed'] }, unsigned),
        api.client.get('/webhooks', unsigned),
        api.client.get(`/webhooks/${id}`, unsigned),
        api.client.delete(`/webhooks/${id}`, unsigned),
        api.client.get(`/webhooks/${id}/deliveries`, unsigned),
        api.client.post(`/webhooks/${id}/test`, undefined, unsigned),
        api.client.get(`/webhooks/${id}`, { secret: 'a-wrong-secret-0123456789' }),
      ]);
      expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401, 401, 401, 401]);
      expect(await webhookRows(api)).toEqual({ subscriptions: 1, events: 0, deliveries: 0 });
      expect((await api.client.get('/webhooks/42')).body.message).toBe('id must be a UUID');
      expect((await api.client.post(`/webhooks/${randomUUID()}/test`)).status).toBe(404);
      expect((await api.client.get(`/webhooks/${randomUUID()}/deliveries`)).status).toBe(404);
      expect((await api.client.get(`/webhooks/${id}/deliveries?cursor=forged`)).status).toBe(400);
      expect((await api.client.get(`/webhooks/${id}/deliveries?limit=0`)).status).toBe(400);
    });
  });

  describe('delivery', () => {
    it('delivers action.succeeded, signed per Standard Webhooks, with the action after the change', async () => {
      const { id, secret } = await subscribe(api.client, receiver.url());
      const actionId = await runAction();
      const [call] = await waitUntil('the event', () => (receiver.calls.length > 0 ? receiver.calls : null));
      expect(call.headers['content-type']).toBe('application/json');
      const event = verifiedEvent(call, secret);
      expect(event).toEqual({
        type: 'action.succeeded',
        timestamp: expect.any(String),
        data: {
          action: expect.objectContaining({ id: actionId, status: 'COMPLETED', callbackUrl: null }),
          occurrence: 1,
          attempt: 1,
          note: expect.stringContaining('200'),
        },
      });
      // The action in the event is the resource GET /actions/:id answers.
      expect(event.data.action).toEqual((await api.client.get(`/actions/${actionId}`)).body);
      const [delivery] = await deliveriesWhen(api.client, id, (items) => items[0]?.status === 'DELIVERED');
      expect(delivery).toEqual({
        id: expect.any(String),
        type: 'action.succeeded',
        actionId,
        status: 'DELIVERED',
        attempts: 1,
        lastStatusCode: 200,
        lastError: null,
        createdAt: expect.any(String),
        deliveredAt: expect.any(String),
      });
      // A signature made with another secret does not verify.
      expect(() => verifiedEvent(call, `whsec_${Buffer.alloc(24, 1).toString('base64')}`)).toThrow();
    });

    it('retries a failing receiver with the same webhook-id until it answers 2xx', async () => {
      const { id, secret } = await subscribe(api.client, receiver.url(), { events: ['action.succeeded'] });
      receiver.failNext(2, 503);
      await runAction();
      const [delivery] = await deliveriesWhen(api.client, id, (items) => items[0]?.status === 'DELIVERED');
      expect(delivery).toMatchObject({ status: 'DELIVERED', attempts: 3, lastStatusCode: 200, lastError: null });
      expect(receiver.calls).toHaveLength(3);
      expect(new Set(receiver.calls.map((c) => c.headers['webhook-id'])).size).toBe(1);
      for (const call of receiver.calls) expect(verifiedEvent(call, secret).type).toBe('action.succeeded');
      // Every attempt carries the same body.
      expect(new Set(receiver.calls.map((c) => c.body)).size).toBe(1);
    });

    it('counts delivery attempts by outcome in punctual_webhook_deliveries_total', async () => {
      const scrape = async () =>
        (await (await fetch(`${workerHttpUrl(worker)}/metrics`)).text()).match(/^punctual_webhook_deliveries_total\{outcome="(\w+)"\} (\d+)$/gm) ?? [];
      const counts = async () => Object.fromEntries((await scrape()).map((line) => [/outcome="(\w+)"/.exec(line)![1], Number(line.split(' ')[1])]));
      const before = await counts();
      const { id } = await subscribe(api.client, receiver.url(), { events: ['action.succeeded'] });
      receiver.failNext(1, 503);
      await runAction();
      await deliveriesWhen(api.client, id, (items) => items[0]?.status === 'DELIVERED');
      const after = await counts();
      expect([after.succeeded - before.succeeded, after.failed - before.failed]).toEqual([1, 1]);
    });

    it('ends FAILED after the last delay of WEBHOOK_BACKOFF_DELAYS_MS, with the last answer', async () => {
      const { id } = await subscribe(api.client, receiver.url(), { events: ['action.succeeded'] });
      receiver.failNext(3, 500, 'receiver is down');
      await runAction();
      // Two delays in the test settings: three attempts in all.
      const [delivery] = await deliveriesWhen(api.client, id, (items) => items[0]?.status === 'FAILED');
      expect(delivery).toMatchObject({ status: 'FAILED', attempts: 3, lastStatusCode: 500, lastError: 'HTTP 500: receiver is down', deliveredAt: null });
      expect(receiver.calls).toHaveLength(3);
    });

    it('tells attempt_failed for each failed attempt with retries left, then failed', async () => {
      const { secret } = await subscribe(api.client, receiver.url());
      target.failNext(2, 502);
      const actionId = await runAction({ retryPolicy: { maxRetries: 1, backoff: { type: 'fixed', delayMs: 100 } } });
      const calls = await waitUntil('two events', () => (receiver.calls.length >= 2 ? receiver.calls : null));
      const events = calls.map((call) => verifiedEvent(call, secret)).sort((a, b) => a.data.attempt - b.data.attempt);
      expect(events.map((e) => [e.type, e.data.attempt, e.data.action.status])).toEqual([
        ['action.attempt_failed', 1, 'PENDING'],
        ['action.failed', 2, 'FAILED'],
      ]);
      expect(events[1].data.note).toContain('502');
      expect(events.every((e) => e.data.action.id === actionId)).toBe(true);
    });

    it('tells every occurrence of a repeating action, PENDING until the last one', async () => {
      const { secret } = await subscribe(api.client, receiver.url(), { events: ['action.succeeded'] });
      // Two occurrences, both already due: the second runs as soon as the first completes.
      await runAction({ repeat: true, frequency: 'TEN_MINS', executionRemainder: 2, executionTime: Date.now() - 11 * 60_000, misfirePolicy: 'RUN_ALL' });
      const calls = await waitUntil('two events', () => (receiver.calls.length >= 2 ? receiver.calls : null));
      const events = calls.map((call) => verifiedEvent(call, secret)).sort((a, b) => a.data.occurrence - b.data.occurrence);
      expect(events.map((e) => [e.data.occurrence, e.data.action.status])).toEqual([
        [1, 'PENDING'],
        [2, 'COMPLETED'],
      ]);
    });

    it('tells action.no_action for an action no live worker knew for UNKNOWN_TYPE_GRACE_MS', async () => {
      const { secret } = await subscribe(api.client, receiver.url(), { events: ['action.no_action'] });
      const actionId = await runAction({ executionTime: Date.now() + 600_000 });
      await api.db.query(`UPDATE actions SET action = 'RETIRED_TYPE', next_attempt_at = now() - interval '1 hour' WHERE id = $1`, [actionId]);
      const [call] = await waitUntil('the event', () => (receiver.calls.length > 0 ? receiver.calls : null), 15_000);
      const event = verifiedEvent(call, secret);
      expect(event.type).toBe('action.no_action');
      expect(event.data.action).toMatchObject({ id: actionId, status: 'NO_ACTION' });
    });

    it('sends only the event types and action types a subscription asks for', async () => {
      const onlyFailed = await subscribe(api.client, receiver.url('/failed'), { events: ['action.failed'] });
      const onlyNotifications = await subscribe(api.client, receiver.url('/notifications'), { actionTypes: ['SEND_NOTIFICATION'] });
      const all = await subscribe(api.client, receiver.url('/all'));
      await runAction();
      await deliveriesWhen(api.client, all.id, (items) => items[0]?.status === 'DELIVERED');
      expect((await api.client.get(`/webhooks/${onlyFailed.id}/deliveries`)).body.items).toEqual([]);
      expect((await api.client.get(`/webhooks/${onlyNotifications.id}/deliveries`)).body.items).toEqual([]);
      expect(receiver.calls.map((c) => c.path)).toEqual(['/all']);
    });

    it('stores no event when nobody listens', async () => {
      const actionId = await runAction();
      await waitUntil('the action to complete', async () => (await api.client.get(`/actions/${actionId}`)).body.status === 'COMPLETED');
      expect(await webhookRows(api)).toEqual({ subscriptions: 0, events: 0, deliveries: 0 });
    });

    it('queues a webhook.test event on demand', async () => {
      const { id, secret } = await subscribe(api.client, receiver.url(), { events: ['action.failed'] });
      const queued = await api.client.post(`/webhooks/${id}/test`);
      expect(queued.status).toBe(202);
      expect(queued.body).toMatchObject({ type: 'webhook.test', actionId: null, status: 'PENDING', attempts: 0 });
      const [call] = await waitUntil('the test event', () => (receiver.calls.length > 0 ? receiver.calls : null));
      expect(verifiedEvent(call, secret)).toMatchObject({ type: 'webhook.test', data: { message: expect.any(String) } });
      const [delivery] = await deliveriesWhen(api.client, id, (items) => items[0]?.status === 'DELIVERED');
      expect(delivery.id).toBe(queued.body.id);
    });

    it('sends an attempt once however many jobs carry it', async () => {
      const { id } = await subscribe(api.client, receiver.url(), { events: ['webhook.test'] });
      receiver.delayNext(1, 300);
      const delivery = (await api.client.post(`/webhooks/${id}/test`)).body;
      // Duplicates of the attempt's job, as a re-delivered or hand-made job would be; they arrive together.
      const queue = api.app.get<Queue>(getQueueToken(WEBHOOK_QUEUE));
      await queue.addBulk(
        ['dup-a', 'dup-b', 'dup-c'].map((suffix) => ({
          name: 'deliver',
          data: { deliveryId: delivery.id, attempts: 0, target: id },
          opts: { jobId: `${delivery.id}-${suffix}` },
        })),
      );
      const [done] = await deliveriesWhen(api.client, id, (items) => items[0]?.status === 'DELIVERED');
      expect(done.attempts).toBe(1);
      // Every copy was taken and decided: it ran, or was put off behind the attempt's claim, to find the delivery DELIVERED when it wakes.
      const copies = ['dup-a', 'dup-b', 'dup-c'].map((suffix) => `${delivery.id}-${suffix}`);
      await waitUntil('every copy of the job to have been taken', async () =>
        (await Promise.all(copies.map((jobId) => queue.getJobState(jobId)))).every((state) =>
          ['completed', 'failed', 'unknown', 'delayed'].includes(state),
        ),
      );
      expect(receiver.calls).toHaveLength(1);
    });

    it('pages deliveries newest first', async () => {
      const { id } = await subscribe(api.client, receiver.url(), { events: ['action.failed'] });
      for (let i = 0; i < 3; i += 1) await api.client.post(`/webhooks/${id}/test`);
      const first = (await api.client.get(`/webhooks/${id}/deliveries?limit=2`)).body;
      expect(first.items).toHaveLength(2);
      const second = (await api.client.get(`/webhooks/${id}/deliveries?limit=2&cursor=${first.nextCursor}`)).body;
      expect(second).toEqual({ items: [expect.any(Object)], nextCursor: null });
      const all = [...first.items, ...second.items];
      expect(new Set(all.map((d) => d.id)).size).toBe(3);
      const times = all.map((d) => Date.parse(d.createdAt));
      expect([...times].sort((a, b) => b - a)).toEqual(times);
    });

    it('drops pending deliveries when the subscription is deleted', async () => {
      const { id } = await subscribe(api.client, receiver.url(), { events: ['action.succeeded'] });
      receiver.failNext(100, 503);
      await runAction();
      await deliveriesWhen(api.client, id, (items) => items[0]?.attempts >= 1);
      expect((await api.client.delete(`/webhooks/${id}`)).status).toBe(204);
      const calls = receiver.calls.length;
      // No job of this subscription left, and two sweeps since, which would queue a delivery left pending without its job.
      const queue = api.app.get<Queue>(getQueueToken(WEBHOOK_QUEUE));
      await waitUntil('no delivery job of the subscription to be left', async () =>
        (await queue.getJobs(['waiting', 'delayed', 'active', 'prioritized'])).every((job) => job.data.target !== id),
      );
      await runsSinceNow(worker.get(WebhookSweepLoop), 2);
      expect(receiver.calls.length).toBe(calls);
      expect((await webhookRows(api)).deliveries).toBe(0);
    });

    it('fails a delivery to a refused address at once, judged on the address connected to', async () => {
      const { id } = await subscribe(api.client, 'http://internal.test/hook', { events: ['action.succeeded'] });
      await runAction();
      const [delivery] = await deliveriesWhen(api.client, id, (items) => items[0]?.status === 'FAILED');
      expect(delivery).toMatchObject({ status: 'FAILED', attempts: 1, lastStatusCode: null });
      expect(delivery.lastError).toMatch(/the destination is not allowed \(internal.test resolves to no allowed address\)/);
    });
  });

  describe('per-action callbackUrl', () => {
    it('receives every event of its action, signed with the creating API key', async () => {
      const actionId = await runAction({ callbackUrl: receiver.url('/callback') });
      expect((await api.client.get(`/actions/${actionId}`)).body.callbackUrl).toBe(receiver.url('/callback'));
      const [call] = await waitUntil('the callback', () => (receiver.calls.length > 0 ? receiver.calls : null));
      expect(call.path).toBe('/callback');
      // Keyed with the API key's secret as UTF-8 bytes, given to the library in base64.
      const apiKeySecret = Buffer.from(TEST_KEY.secret, 'utf8').toString('base64');
      expect(verifiedEvent(call, apiKeySecret)).toMatchObject({ type: 'action.succeeded', data: { action: { id: actionId } } });
    });

    it('is set, changed and cleared by PATCH, and refused when it is not an allowed http(s) URL', async () => {
      const created = await api.client.post('/actions', notificationExample(3_600_000, { callbackUrl: 'https://example.com/a' }));
      expect(created.body.callbackUrl).toBe('https://example.com/a');
      const id = created.body.id;
      expect((await api.client.patch(`/actions/${id}`, { callbackUrl: 'https://example.com/b' })).body.callbackUrl).toBe('https://example.com/b');
      expect((await api.client.patch(`/actions/${id}`, { callbackUrl: null })).body.callbackUrl).toBeNull();
      for (const [url, message] of [
        ['mailto:ops@example.com', /callbackUrl must be an https:\/\/ or http:\/\/ URL/],
        ['http://169.254.169.254/', /callbackUrl is not an allowed destination/],
        [42, /callbackUrl must be a string/],
      ] as const) {
        const patched = await api.client.patch(`/actions/${id}`, { callbackUrl: url });
        expect(patched.status).toBe(400);
        expect(JSON.stringify(patched.body.message)).toMatch(message);
        const refused = await api.client.post('/actions', notificationExample(3_600_000, { callbackUrl: url }));
        expect(refused.status).toBe(400);
      }
      const batch = await api.client.post('/actions/batch', {
        items: [notificationExample(), notificationExample(3_600_000, { callbackUrl: 'ftp://x.io' })],
      });
      expect(batch.status).toBe(400);
      expect(batch.body.message).toEqual(['items.1.callbackUrl must be an https:// or http:// URL']);
      expect((await api.client.get(`/actions/${id}`)).body.callbackUrl).toBeNull();
    });
  });

  it('lists every event type in the error for an unknown one', async () => {
    const res = await api.client.post('/webhooks', { url: receiver.url(), events: ['nope'] });
    for (const type of [...EVERY_ACTION_EVENT, 'webhook.test']) expect(JSON.stringify(res.body.message)).toContain(type);
  });
});
