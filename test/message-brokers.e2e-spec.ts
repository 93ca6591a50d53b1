import { INestApplicationContext } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { SignedHttp, verifyMessage } from '@punctual/client';
import { OTHER_TENANT_KEY, TEST_KEY, waitUntil } from '@app/testing';
import { adminApi } from './support/admin-api';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { MQTT_URL, RABBITMQ_URL, deleteQueues } from './support/brokers';
import { storedCounts } from './support/fixtures';
import { freePort } from './support/free-port';
import { queuedJobs } from './support/queue-state';
import { SiblingApp } from './support/sibling-app';
import { startWorker } from './support/worker-test-app';

/** This run's own queue: a durable queue outlives the run, and a queue shared with another run's sibling would split the messages. */
const QUEUE = `test-siblings-${randomUUID().slice(0, 8)}`;
const RABBITMQ_SIBLINGS = `${RABBITMQ_URL}?queue=${QUEUE}`;

describe.each([
  ['RabbitMQ', 'rabbit', RABBITMQ_SIBLINGS, 'amqp'],
  ['MQTT', 'mqtt', MQTT_URL, 'mqtt'],
])('MESSAGE actions call a sibling app over %s (contract §8, §16)', (_name, transport, url, scheme) => {
  let api: ApiTestApp;
  let worker: INestApplicationContext;
  let sibling: SiblingApp;
  let env: Record<string, string>;
  const id = randomUUID().slice(0, 8);

  beforeAll(async () => {
    // A transport whose broker does not answer: a port nothing listens on.
    env = { MESSAGE_TRANSPORTS: `${transport}=${url},down=${scheme}://127.0.0.1:${await freePort()}` };
    api = await startCleanApiApp(undefined, env);
    worker = await startWorker({ env });
    sibling = await new SiblingApp(url, `billing.${id}.renew`, `billing.${id}.renewed`, {
      reply: (data) => ({ renewed: (data as { payload: unknown }).payload }),
    }).start();
  });
  afterAll(async () => {
    await adminApi(api.client.baseUrl, 'PATCH', '/tenants/team-b', { messaging: null });
    await sibling?.stop();
    await worker?.close();
    await api?.close();
    if (scheme === 'amqp') await deleteQueues(RABBITMQ_URL, [QUEUE]);
  });

  async function create(data: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<string> {
    const response = await api.client.post('/actions', { action: 'MESSAGE', executionTime: Date.now(), data: { transport, ...data }, ...extra });
    expect(response.status).toBe(201);
    return response.body.id;
  }
  const reaches = (actionId: string, status: string) =>
    waitUntil(
      `action ${actionId} to be ${status}`,
      async () => {
        const action = (await api.client.get(`/actions/${actionId}`)).body;
        return action.status === status ? action : null;
      },
      20_000,
    );
  const notesOf = async (actionId: string) =>
    ((await api.client.get(`/actions/${actionId}/history`)).body as { note: string | null }[]).map((e) => e.note);
  /** What reached the sibling for an action; a later action's message, sent after, arriving first proves nothing more of it is on its way. */
  const receivedFor = async (actionId: string) => {
    const marker = await create({ pattern: sibling.eventPattern, expectReply: false });
    await waitUntil('the marker message', () => sibling.received.some((r) => r.data.actionId === marker), 20_000);
    return sibling.received.filter((r) => r.data.actionId === actionId);
  };

  it('sends with a reply: the reply goes into the history, the message arrives once, signed so that verifyMessage accepts it', async () => {
    const actionId = await create({ pattern: sibling.pattern, payload: { account: 'acc-1' }, timeoutMs: 10_000 });
    await reaches(actionId, 'COMPLETED');
    expect((await notesOf(actionId)).at(-1)).toBe(`reply to ${sibling.pattern} on transport "${transport}": {"renewed":{"account":"acc-1"}}`);
    const received = await receivedFor(actionId);
    expect(received.map((r) => [r.pattern, r.data.idempotencyKey])).toEqual([[sibling.pattern, `${actionId}:1`]]);
    const { data } = received[0];
    expect(verifyMessage(data, { tenant: 'default', secrets: TEST_KEY.secret })).toBe(data);
    expect(() => verifyMessage({ ...data, payload: { account: 'acc-2' } }, { tenant: 'default', secrets: TEST_KEY.secret })).toThrow();
  });

  it('emits when no reply is expected: success once the broker took it, and the event arrives once', async () => {
    const actionId = await create({ pattern: sibling.eventPattern, payload: 7, expectReply: false });
    await reaches(actionId, 'COMPLETED');
    expect((await notesOf(actionId)).at(-1)).toBe(`emitted ${sibling.eventPattern} on transport "${transport}"`);
    const received = await receivedFor(actionId);
    expect(received.map((r) => [r.pattern, r.data.idempotencyKey, r.data.payload])).toEqual([[sibling.eventPattern, `${actionId}:1`, 7]]);
    expect(verifyMessage(received[0].data, { tenant: 'default', secrets: TEST_KEY.secret })).toBe(received[0].data);
  });

  it('a broker that does not answer fails the attempt, which is retried like any other, and the worker carries on', async () => {
    const actionId = await create(
      { transport: 'down', pattern: sibling.pattern, timeoutMs: 2_000 },
      { retryPolicy: { maxRetries: 1, backoff: { type: 'fixed', delayMs: 100 } } },
    );
    const failed = await reaches(actionId, 'FAILED');
    expect(failed.retryCount).toBe(2);
    const failures = (await notesOf(actionId)).filter((note) => note?.startsWith(`sending ${sibling.pattern} on transport "down": `));
    expect(failures).toHaveLength(2);
    // The same worker still reaches the broker that answers.
    await reaches(await create({ pattern: sibling.eventPattern, expectReply: false }), 'COMPLETED');
  });

  it('a tenant may message only the transports and patterns it was allowed: anything else 400, nothing stored or queued', async () => {
    const teamB = new SignedHttp<any>({ baseUrl: api.client.baseUrl, ...OTHER_TENANT_KEY });
    const allowed = { transports: [transport], patterns: [`billing.${id}.`] };
    expect((await adminApi(api.client.baseUrl, 'PATCH', '/tenants/team-b', { messaging: allowed })).status).toBe(200);
    const before = await storedCounts(api.db);
    const jobs = await queuedJobs(api.app);
    const message = (data: Record<string, unknown>) => ({ action: 'MESSAGE', executionTime: Date.now() + 3_600_000, data });

    const otherPattern = await teamB.post('/actions', message({ transport, pattern: 'payroll.run' }));
    expect(otherPattern.status).toBe(400);
    expect(JSON.stringify(otherPattern.body.message)).toContain('payroll.run');
    const otherTransport = await teamB.post('/actions', message({ transport: 'down', pattern: sibling.pattern }));
    expect(otherTransport.status).toBe(400);
    expect(otherTransport.body.message).toEqual([
      'data.transport: transport "down" is not allowed for tenant team-b; an operator allows it in the tenant\'s messaging',
    ]);
    expect(await storedCounts(api.db)).toEqual(before);
    expect(await queuedJobs(api.app)).toBe(jobs);

    const granted = await teamB.post('/actions', message({ transport, pattern: sibling.pattern }));
    expect(granted.status).toBe(201);
  });

  it('a pattern holding + or #, even one the tenant may send: refused on MQTT, whose wildcards they are, a plain name on RabbitMQ', async () => {
    const teamB = new SignedHttp<any>({ baseUrl: api.client.baseUrl, ...OTHER_TENANT_KEY });
    expect(
      (await adminApi(api.client.baseUrl, 'PATCH', '/tenants/team-b', { messaging: { transports: [transport], patterns: [`billing.${id}.`] } })).status,
    ).toBe(200);
    for (const pattern of [`billing.${id}.#`, `billing.${id}.+`]) {
      const before = await storedCounts(api.db);
      const response = await teamB.post('/actions', { action: 'MESSAGE', executionTime: Date.now() + 3_600_000, data: { transport, pattern } });
      if (scheme === 'mqtt') {
        expect({ status: response.status, message: response.body.message }).toEqual({
          status: 400,
          message: [`data.pattern: "${pattern}" holds an MQTT wildcard (+ or #); transport "${transport}" publishes on the pattern as a topic`],
        });
        expect(await storedCounts(api.db)).toEqual(before);
      } else {
        expect(response.status).toBe(201);
      }
    }
  });
});
