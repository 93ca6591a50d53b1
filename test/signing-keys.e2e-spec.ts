import { SignedHttp } from '@punctual/client';
import { KeyRegistry } from '@app/signature';
import { OTHER_TENANT_KEY, ROTATED_KEY, ReceivedCall, TEST_KEY, TestHttp, waitUntil } from '@app/testing';
import { adminApi, tenantWithKey } from './support/admin-api';
import { useRunningStack } from './support/running-stack';
import { verifiedEvent } from './support/webhooks';
import { startWorker } from './support/worker-test-app';

const HOUR = 3_600_000;
/** The key of a Standard Webhooks verifier for calls keyed with an API key's secret (its UTF-8 bytes). */
const verifierKey = (secret: string) => Buffer.from(secret, 'utf8').toString('base64');

describe("Whose signature: an action's calls and events are signed by the key that last set what they send", () => {
  const stack = useRunningStack();
  let other: TestHttp;

  beforeAll(() => {
    other = new SignedHttp<any>({ baseUrl: stack.api.client.baseUrl, ...ROTATED_KEY });
  });

  async function createLater(path: string, extra: object = {}) {
    const response = await stack.api.client.post('/actions', {
      action: 'HTTP_REQUEST',
      executionTime: Date.now() + HOUR,
      data: { url: stack.receiver.url(path), body: { from: 'creator' } },
      ...extra,
    });
    expect(response.status).toBe(201);
    return response.body;
  }

  const callTo = (path: string) => waitUntil(`a call to ${path}`, () => stack.receiver.callsTo(path)[0]);
  const verifiedBy = (call: ReceivedCall, secret: string) => verifiedEvent(call, verifierKey(secret));

  it("another key that replaces the data has the call signed with its own secret, never the creator's", async () => {
    const action = await createLater('/created');
    const patched = await other.patch(`/actions/${action.id}`, {
      data: { url: stack.receiver.url('/chosen-by-other'), body: { from: 'other' } },
      executionTime: Date.now(),
    });
    expect(patched.status).toBe(200);
    const call = await callTo('/chosen-by-other');
    expect(verifiedBy(call, ROTATED_KEY.secret)).toEqual({ from: 'other' });
    expect(() => verifiedBy(call, TEST_KEY.secret)).toThrow('No matching signature found');
  });

  it('a change that leaves the data alone keeps the signature of the key that set it', async () => {
    const action = await createLater('/kept');
    expect((await other.patch(`/actions/${action.id}`, { metadata: { touched: true }, executionTime: Date.now() })).status).toBe(200);
    const call = await callTo('/kept');
    expect(verifiedBy(call, TEST_KEY.secret)).toEqual({ from: 'creator' });
  });

  it('callback events are signed by the key that set the callback URL, and a cancel tells it action.canceled', async () => {
    const action = await createLater('/never-called');
    expect((await other.patch(`/actions/${action.id}`, { callbackUrl: stack.receiver.url('/callback') })).status).toBe(200);
    expect((await stack.api.client.post(`/actions/${action.id}/cancel`, { note: 'no longer needed' })).status).toBe(200);
    const call = await callTo('/callback');
    expect(verifiedBy(call, ROTATED_KEY.secret)).toMatchObject({
      type: 'action.canceled',
      data: { action: { id: action.id, status: 'CANCELED' }, occurrence: 1, attempt: 0, note: 'canceled: no longer needed' },
    });
    expect(() => verifiedBy(call, TEST_KEY.secret)).toThrow('No matching signature found');
    expect(stack.receiver.callsTo('/never-called')).toHaveLength(0);
  });
});

describe("Signatures stay inside the tenant: only a key of the action's own tenant ever signs what it sends", () => {
  const stack = useRunningStack();
  const admin = (method: string, path: string, body?: unknown) => adminApi(stack.api.client.baseUrl, method, path, body);
  /** A tenant of this run with one key made at run time; more with `keyOf`. */
  const tenant = (name: string) => tenantWithKey(stack.api.client.baseUrl, `${name}-${Date.now().toString(36)}`, {});
  async function keyOf(tenantId: string): Promise<{ keyId: string; secret: string }> {
    const { status, body } = await admin('POST', `/tenants/${tenantId}/keys`, {});
    expect(status).toBe(201);
    return { keyId: body.keyId, secret: body.secret };
  }
  async function revoke(tenantId: string, keyId: string): Promise<void> {
    expect((await admin('DELETE', `/tenants/${tenantId}/keys/${keyId}`)).status).toBe(204);
  }
  /** The worker's view of the keys no longer holds `keyId` (its next refresh came): only Postgres can say what signs now. */
  const workerDropped = (keyId: string) => waitUntil(`the worker to drop ${keyId}`, () => stack.worker.get(KeyRegistry).find(keyId) === undefined, 10_000);
  const clientOf = (key: { keyId: string; secret: string }) => new SignedHttp<any>({ baseUrl: stack.api.client.baseUrl, ...key });

  async function create(client: TestHttp, path: string, extra: object = {}) {
    const response = await client.post('/actions', {
      action: 'HTTP_REQUEST',
      executionTime: Date.now(),
      data: { url: stack.receiver.url(path), body: { path } },
      callbackUrl: stack.receiver.url(`${path}/callback`),
      ...extra,
    });
    expect(response.status).toBe(201);
    return response.body;
  }
  const calledAt = (path: string) => waitUntil(`a call to ${path}`, () => stack.receiver.callsTo(path)[0]);
  const succeededEventAt = (path: string) =>
    waitUntil(`the action.succeeded event at ${path}`, () =>
      stack.receiver.callsTo(path).find((call) => (JSON.parse(call.body) as { type: string }).type === 'action.succeeded'),
    );
  const signedBy = (call: ReceivedCall, secret: string) => verifiedEvent(call, verifierKey(secret));
  const notSignedBy = (call: ReceivedCall, ...secrets: string[]) => {
    for (const secret of secrets) expect(() => signedBy(call, secret)).toThrow('No matching signature found');
  };

  it("the setter's key revoked before the action runs: its call and callback events are signed by the tenant's oldest remaining key", async () => {
    const { id, key: oldest } = await tenant('revoked');
    const setter = await keyOf(id);
    const action = await create(clientOf(setter), '/revoked', { executionTime: Date.now() + HOUR });
    await revoke(id, setter.keyId);
    await workerDropped(setter.keyId);
    expect((await clientOf(oldest).patch(`/actions/${action.id}`, { executionTime: Date.now() })).status).toBe(200);

    const call = await calledAt('/revoked');
    expect(signedBy(call, oldest.secret)).toEqual({ path: '/revoked' });
    notSignedBy(call, setter.secret, TEST_KEY.secret);
    const event = await succeededEventAt('/revoked/callback');
    expect(signedBy(event, oldest.secret)).toMatchObject({ type: 'action.succeeded', data: { action: { id: action.id } } });
    notSignedBy(event, setter.secret, TEST_KEY.secret);
  });

  it('a tenant with no key left: the attempt fails with a note saying so, and is retried; so are its callback events', async () => {
    const { id, key } = await tenant('keyless');
    // Nothing listens on port 1: attempts fail (and are retried) while the key still signs.
    const response = await clientOf(key).post('/actions', {
      action: 'HTTP_REQUEST',
      executionTime: Date.now(),
      data: { url: 'http://127.0.0.1:1/never' },
      callbackUrl: stack.receiver.url('/keyless/callback'),
      retryPolicy: { maxRetries: 25, backoff: { type: 'fixed', delayMs: 200 } },
    });
    expect(response.status).toBe(201);
    await revoke(id, key.keyId);
    await workerDropped(key.keyId);

    const noKey = `tenant "${id}" has no API key left to sign with`;
    const refused = await waitUntil(
      'two attempts refused for want of a key',
      async () => {
        const history = await stack.api.db.query<{ note: string | null }[]>(`SELECT note FROM action_history WHERE action_id = $1 ORDER BY at`, [
          response.body.id,
        ]);
        const notes = history.map((entry) => entry.note ?? '').filter((note) => note.includes(noKey));
        return notes.length >= 2 ? notes : null;
      },
      20_000,
    );
    for (const note of refused) expect(note).not.toContain(key.secret);
    const [action] = await stack.api.db.query(`SELECT status, retry_count FROM actions WHERE id = $1`, [response.body.id]);
    expect(action.retry_count).toBeLessThan(26);

    const retriedDelivery = await waitUntil(
      'a callback delivery retried for want of a key',
      async () => {
        const rows = await stack.api.db.query<{ attempts: number; last_error: string }[]>(
          `SELECT attempts, last_error FROM webhook_deliveries WHERE url = $1 AND attempts >= 2 AND last_error LIKE $2`,
          [stack.receiver.url('/keyless/callback'), `%${noKey}%`],
        );
        return rows[0];
      },
      20_000,
    );
    expect(retriedDelivery.last_error).not.toContain(key.secret);
    // What did go out was signed by the tenant's key while it lasted, never by another tenant's.
    for (const event of stack.receiver.callsTo('/keyless/callback')) {
      expect(() => signedBy(event, key.secret)).not.toThrow();
      notSignedBy(event, TEST_KEY.secret);
    }
  });

  it("a key retired from API_KEYS at a worker's restart: the tenant's remaining key signs", async () => {
    const remaining = await keyOf('team-b');
    const action = await create(clientOf(OTHER_TENANT_KEY), '/retired', { executionTime: Date.now() + HOUR });
    await stack.worker.close();
    stack.worker = await startWorker({ env: { API_KEYS: `${TEST_KEY.keyId}:${TEST_KEY.secret},${ROTATED_KEY.keyId}:${ROTATED_KEY.secret}` } });
    expect((await clientOf(OTHER_TENANT_KEY).patch(`/actions/${action.id}`, { executionTime: Date.now() })).status).toBe(200);

    const call = await calledAt('/retired');
    expect(signedBy(call, remaining.secret)).toEqual({ path: '/retired' });
    notSignedBy(call, OTHER_TENANT_KEY.secret, TEST_KEY.secret);
    notSignedBy(await succeededEventAt('/retired/callback'), OTHER_TENANT_KEY.secret, TEST_KEY.secret);
    expect(() => signedBy(stack.receiver.callsTo('/retired/callback')[0], remaining.secret)).not.toThrow();
  });

  it('a key made at run time and used at once signs with its own secret on a worker that never read it', async () => {
    // No refresh from here on: only the read before signing can tell this worker about the new key.
    stack.worker.get(KeyRegistry).onModuleDestroy();
    const { key } = await tenant('fresh');
    expect(stack.worker.get(KeyRegistry).find(key.keyId)).toBeUndefined();
    await create(clientOf(key), '/fresh');

    const call = await calledAt('/fresh');
    expect(signedBy(call, key.secret)).toEqual({ path: '/fresh' });
    notSignedBy(call, TEST_KEY.secret);
    const event = await succeededEventAt('/fresh/callback');
    expect(() => signedBy(event, key.secret)).not.toThrow();
  });
});
