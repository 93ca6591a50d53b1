import { INestApplicationContext } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { MessageVerificationError, SignedHttp, verifyMessage } from '@punctual/client';
import { ROTATED_KEY, TEST_KEY, TestHttp, waitUntil } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { storedCounts } from './support/fixtures';
import { NATS_URL } from './support/nats';
import { SiblingApp } from './support/sibling-app';
import { startWorker } from './support/worker-test-app';

const TRANSPORTS = { MESSAGE_TRANSPORTS: `nats=${NATS_URL}` };

describe.each([
  ['Redis', 'default', process.env.REDIS_URL!],
  ['NATS', 'nats', NATS_URL],
])('MESSAGE actions call sibling apps over %s (contract §8)', (_name, transport, url) => {
  let api: ApiTestApp;
  let worker: INestApplicationContext;
  const siblings: SiblingApp[] = [];

  beforeAll(async () => {
    api = await startCleanApiApp(undefined, TRANSPORTS);
    worker = await startWorker({ env: TRANSPORTS });
  });
  afterAll(async () => {
    await Promise.all(siblings.map((s) => s.stop()));
    await worker?.close();
    await api?.close();
  });

  /** A sibling on this transport with patterns of its own, so no other test's messages reach it. */
  function sibling(reply?: (data: unknown) => unknown): SiblingApp {
    const id = randomUUID().slice(0, 8);
    const app = new SiblingApp(url, `test.sibling.${id}`, `test.sibling.${id}.event`, reply ? { reply } : undefined);
    siblings.push(app);
    return app;
  }

  async function create(data: Record<string, unknown>, extra: Record<string, unknown> = {}, client: TestHttp = api.client): Promise<string> {
    const response = await client.post('/actions', { action: 'MESSAGE', executionTime: Date.now(), data: { transport, ...data }, ...extra });
    expect(response.status).toBe(201);
    return response.body.id;
  }
  const reaches = (id: string, status: string) =>
    waitUntil(
      `action ${id} to be ${status}`,
      async () => {
        const action = (await api.client.get(`/actions/${id}`)).body;
        return action.status === status ? action : null;
      },
      15_000,
    );
  const historyOf = async (id: string) => (await api.client.get(`/actions/${id}/history`)).body as { to: string; note: string | null }[];

  it('sends the pattern with the envelope; the reply, cut to 1 KiB, goes into the history', async () => {
    const app = await sibling(() => ({ ok: true, filler: 'r'.repeat(3000) })).start();
    const id = await create({ pattern: app.pattern, payload: { accountId: 'acc-1', plan: 'free' } });
    await reaches(id, 'COMPLETED');
    expect(app.received).toHaveLength(1);
    const { data } = app.received[0];
    expect(data).toEqual({
      idempotencyKey: `${id}:1`,
      actionId: id,
      occurrence: 1,
      scheduledFor: expect.any(String),
      payload: { accountId: 'acc-1', plan: 'free' },
      tenant: 'default',
      timestamp: expect.any(Number),
      signature: expect.stringMatching(/^v1,[A-Za-z0-9+/]+=*$/),
    });
    expect(new Date(data.scheduledFor as string).toISOString()).toBe(data.scheduledFor);
    const note = (await historyOf(id)).at(-1)!.note!;
    expect(note).toMatch(new RegExp(`^reply to ${app.pattern} on transport "${transport}": \\{"ok":true,"filler":"r+…$`));
    expect(Buffer.byteLength(note)).toBeLessThan(1024 + 200);
  });

  it('signs the message with the key that set its data, so that verifyMessage accepts it and refuses any change', async () => {
    const app = await sibling().start();
    const byRotatedKey = new SignedHttp<any>({ baseUrl: api.client.baseUrl, ...ROTATED_KEY });
    const id = await create({ pattern: app.pattern, payload: { accountId: 'acc-2', amounts: [1, 2.5] } }, {}, byRotatedKey);
    await reaches(id, 'COMPLETED');
    const { data } = app.received[0];
    expect(Math.abs((data.timestamp as number) - Date.now() / 1000)).toBeLessThan(60);
    const options = { tenant: 'default', secrets: ROTATED_KEY.secret };
    expect(verifyMessage(data, options)).toBe(data);

    const refused = (changed: Record<string, unknown>, given = options) => {
      expect(() => verifyMessage(changed, given)).toThrow(MessageVerificationError);
    };
    refused(data, { tenant: 'default', secrets: TEST_KEY.secret });
    refused({ ...data, payload: { accountId: 'acc-3', amounts: [1, 2.5] } });
    refused({ ...data, timestamp: (data.timestamp as number) - 1 });
    refused({ ...data, idempotencyKey: `${id}:2` });
    refused({ ...data, tenant: 'team-b' });
    refused(data, { tenant: 'team-b', secrets: ROTATED_KEY.secret });
  });

  it('emits when no reply is expected: success once the transport took it', async () => {
    const app = await sibling().start();
    const id = await create({ pattern: app.eventPattern, payload: 7, expectReply: false });
    await reaches(id, 'COMPLETED');
    await waitUntil('the event to arrive', () => app.received.length === 1);
    expect(app.received[0]).toEqual({ pattern: app.eventPattern, data: expect.objectContaining({ idempotencyKey: `${id}:1`, payload: 7 }) });
    expect((await historyOf(id)).at(-1)!.note).toBe(`emitted ${app.eventPattern} on transport "${transport}"`);
  });

  it('a sibling that answers with an error: retried with the same idempotency key, then FAILED', async () => {
    const app = await sibling(() => {
      throw new Error('account locked');
    }).start();
    const id = await create({ pattern: app.pattern }, { retryPolicy: { maxRetries: 2, backoff: { type: 'fixed', delayMs: 100 } } });
    const failed = await reaches(id, 'FAILED');
    expect(failed.retryCount).toBe(3);
    expect(failed.lastError).toMatch(/account locked/);
    expect(app.received.map((r) => r.data.idempotencyKey)).toEqual([`${id}:1`, `${id}:1`, `${id}:1`]);
  });

  it('a sibling that is down when the action fires: retried, then delivered once it is up, once', async () => {
    const app = sibling();
    const id = await create({ pattern: app.pattern, timeoutMs: 300 }, { retryPolicy: { maxRetries: 20, backoff: { type: 'fixed', delayMs: 200 } } });
    await waitUntil('a failed attempt', async () => (await api.client.get(`/actions/${id}`)).body.retryCount >= 1, 10_000);
    await app.start();
    const done = await reaches(id, 'COMPLETED');
    expect(done.lastError).toBeNull();
    expect(app.received.map((r) => r.data.idempotencyKey)).toEqual([`${id}:1`]);
    // Redis pub/sub: no answer in time; NATS may also say at once that no one listens.
    const failures = (await historyOf(id)).filter((entry) => entry.note?.startsWith(`sending ${app.pattern} on transport "${transport}": `));
    expect(failures.length).toBeGreaterThanOrEqual(1);
  });

  it('refuses a transport MESSAGE_TRANSPORTS does not name: 400, nothing stored', async () => {
    const before = await storedCounts(api.db);
    const response = await api.client.post('/actions', { action: 'MESSAGE', executionTime: Date.now(), data: { pattern: 'x', transport: 'billing' } });
    expect(response.status).toBe(400);
    expect(response.body.message).toEqual(['data.transport: transport "billing" is not configured; MESSAGE_TRANSPORTS names default, nats']);
    expect(await storedCounts(api.db)).toEqual(before);
  });
});
