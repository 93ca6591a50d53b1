import { randomUUID } from 'node:crypto';
import { PunctualClient, SignedHttp, SignedRpc } from '@punctual/client';
import { RPC_PATTERNS } from '@punctual/contract';
import { OTHER_TENANT_KEY, TEST_KEY } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { refusal } from './support/refusal';
import { httpRequestExample } from './support/fixtures';

// Tenant A (the test key) stores an action, a calendar and a webhook subscription with a delivery;
// tenant B (another tenant's key) tries every route and message pattern on them. Each answer must be
// the one a missing id gets, each list and count must leave A's rows out, and nothing of A's changes.
describe('Tenants: a key sees and changes only its own tenant (contract §13)', () => {
  let api: ApiTestApp;
  let a: SignedHttp<any>;
  let b: SignedHttp<any>;
  let bRpc: SignedRpc;
  let actionId: string;
  let webhookId: string;
  let deliveryId: string;

  beforeAll(async () => {
    api = await startCleanApiApp(undefined, { RPC_TRANSPORT_URL: process.env.REDIS_URL! });
    a = api.client;
    b = new SignedHttp<any>({ baseUrl: a.baseUrl, ...OTHER_TENANT_KEY });
    bRpc = new SignedRpc({ transport: process.env.REDIS_URL!, ...OTHER_TENANT_KEY, timeoutMs: 5_000 });
    expect((await a.put('/calendars/holidays', { dates: ['2031-12-25'] })).status).toBe(200);
    const created = await a.post(
      '/actions',
      httpRequestExample(3_600_000, { repeat: true, frequency: 'DAILY', executionRemainder: 3, calendar: 'holidays' }),
    );
    expect(created.status).toBe(201);
    actionId = created.body.id;
    const webhook = await a.post('/webhooks', { url: 'https://example.com/a-events', events: ['action.paused'] });
    webhookId = webhook.body.id;
    deliveryId = (await a.post(`/webhooks/${webhookId}/test`)).body.id;
  });
  afterAll(async () => {
    await bRpc?.close();
    await api?.close();
  });

  /** A's rows as they are: compared before and after B's attempts. */
  const aState = async () => ({
    action: (await a.get(`/actions/${actionId}`)).body,
    history: (await a.get(`/actions/${actionId}/history`)).body,
    calendar: (await a.get('/calendars/holidays')).body,
    webhook: (await a.get(`/webhooks/${webhookId}`)).body,
    deliveries: (await a.get(`/webhooks/${webhookId}/deliveries`)).body,
  });

  it("answers every route about another tenant's action exactly as about one that does not exist, and changes nothing", async () => {
    const before = await aState();
    const routes: [string, (id: string) => string, unknown?][] = [
      ['GET', (id) => `/actions/${id}`],
      ['GET', (id) => `/actions/${id}/history`],
      ['GET', (id) => `/actions/${id}/occurrences`],
      ['PATCH', (id) => `/actions/${id}`, { metadata: { taken: true } }],
      ['DELETE', (id) => `/actions/${id}`],
      ['POST', (id) => `/actions/${id}/retry`],
      ['POST', (id) => `/actions/${id}/cancel`, {}],
      ['POST', (id) => `/actions/${id}/pause`, {}],
      ['POST', (id) => `/actions/${id}/resume`],
      ['POST', (id) => `/actions/${id}/skip`, {}],
    ];
    for (const [method, path, body] of routes) {
      const answer = await b.request(method, path(actionId), body);
      expect([method, path(':id'), answer.status]).toEqual([method, path(':id'), 404]);
      const missing = randomUUID();
      const missingAnswer = await b.request(method, path(missing), body);
      expect(JSON.stringify(answer.body)).toBe(JSON.stringify(missingAnswer.body).replaceAll(missing, actionId));
    }
    expect(await aState()).toEqual(before);
  });

  it("leaves another tenant's rows out of every list and count, and its calendars out of reach", async () => {
    expect((await b.get('/actions')).body.items).toEqual([]);
    const stats = (await b.get('/actions/stats')).body;
    expect(stats.total).toBe(0);
    expect((await a.get('/actions/stats')).body.total).toBe(1);
    expect((await b.get('/calendars')).body.items).toEqual([]);
    expect((await b.get('/webhooks')).body.items).toEqual([]);

    // A calendar name is a tenant's own: B cannot name A's, reads a 404, and its own of that name is apart.
    const naming = await b.post(
      '/actions',
      httpRequestExample(3_600_000, { repeat: true, frequency: 'DAILY', executionRemainder: 3, calendar: 'holidays' }),
    );
    expect(naming.status).toBe(400);
    expect(JSON.stringify(naming.body.message)).toMatch(/no calendar is named holidays/);
    expect((await b.get('/calendars/holidays')).status).toBe(404);
    expect((await b.delete('/calendars/holidays')).status).toBe(404);
    expect((await b.put('/calendars/holidays', { dates: ['2032-01-01'] })).body.dates).toEqual(['2032-01-01']);
    expect((await a.get('/calendars/holidays')).body.dates).toEqual(['2031-12-25']);
    expect((await b.delete('/calendars/holidays')).status).toBe(204);
    expect((await a.get('/calendars/holidays')).status).toBe(200);
  });

  it("answers every route about another tenant's webhook subscription and its deliveries with 404", async () => {
    const before = await aState();
    for (const [method, path] of [
      ['GET', `/webhooks/${webhookId}`],
      ['GET', `/webhooks/${webhookId}/deliveries`],
      ['POST', `/webhooks/${webhookId}/test`],
      ['POST', `/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`],
      ['DELETE', `/webhooks/${webhookId}`],
    ]) {
      expect([method, path, (await b.request(method, path)).status]).toEqual([method, path, 404]);
    }
    expect(await aState()).toEqual(before);
  });

  it("gives a subscription only its own tenant's events", async () => {
    const bWebhook = await b.post('/webhooks', { url: 'https://example.com/b-events', events: ['action.paused'] });
    expect(bWebhook.status).toBe(201);
    expect((await a.post(`/actions/${actionId}/pause`, {})).status).toBe(200);
    const deliveries = async (id: string, client: SignedHttp<any>) =>
      ((await client.get(`/webhooks/${id}/deliveries`)).body.items as { type: string }[]).map((d) => d.type);
    expect(await deliveries(webhookId, a)).toEqual(['action.paused', 'webhook.test']);
    expect(await deliveries(bWebhook.body.id, b)).toEqual([]);
    expect((await a.post(`/actions/${actionId}/resume`)).status).toBe(200);
  });

  it('keeps idempotency keys apart: the same key from two tenants creates two actions', async () => {
    const key = `same-key-${randomUUID()}`;
    const body = httpRequestExample(3_600_000);
    const fromA = await a.post('/actions', body, { headers: { 'Idempotency-Key': key } });
    const fromB = await b.post('/actions', body, { headers: { 'Idempotency-Key': key } });
    expect([fromA.status, fromB.status]).toEqual([201, 201]);
    expect(fromA.body.id).not.toBe(fromB.body.id);
    expect((await b.get(`/actions/${fromA.body.id}`)).status).toBe(404);
    expect((await a.delete(`/actions/${fromA.body.id}`)).status).toBe(204);
    expect((await b.delete(`/actions/${fromB.body.id}`)).status).toBe(204);
  });

  it("answers every message pattern about another tenant's action or calendar as about a missing one", async () => {
    const before = await aState();
    const byId: [string, object][] = [
      [RPC_PATTERNS.get, {}],
      [RPC_PATTERNS.history, {}],
      [RPC_PATTERNS.occurrences, {}],
      [RPC_PATTERNS.update, { changes: { metadata: { taken: true } } }],
      [RPC_PATTERNS.delete, {}],
      [RPC_PATTERNS.retry, {}],
      [RPC_PATTERNS.cancel, {}],
      [RPC_PATTERNS.pause, {}],
      [RPC_PATTERNS.resume, {}],
      [RPC_PATTERNS.skip, {}],
    ];
    for (const [pattern, extra] of byId) {
      const refused = await refusal(bRpc.send(pattern, { id: actionId, ...extra }));
      expect([pattern, refused.statusCode]).toEqual([pattern, 404]);
    }
    for (const pattern of [RPC_PATTERNS.getCalendar, RPC_PATTERNS.deleteCalendar]) {
      expect([pattern, (await refusal(bRpc.send(pattern, { name: 'holidays' }))).statusCode]).toEqual([pattern, 404]);
    }
    const b2 = PunctualClient.overRpc({ transport: process.env.REDIS_URL!, ...OTHER_TENANT_KEY });
    try {
      expect((await b2.list()).items).toEqual([]);
      expect((await b2.stats()).total).toBe(0);
      expect((await b2.calendars.list()).items).toEqual([]);
    } finally {
      await b2.close();
    }
    expect(await aState()).toEqual(before);
    // The owner's own key still reaches everything.
    const own = PunctualClient.overRpc({ transport: process.env.REDIS_URL!, ...TEST_KEY });
    try {
      expect((await own.get(actionId)).id).toBe(actionId);
    } finally {
      await own.close();
    }
  });
});
