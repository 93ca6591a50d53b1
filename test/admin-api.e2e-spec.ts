import { PunctualAdmin, PunctualError, SignedHttp } from '@punctual/client';
import { MESSAGING_READ_MS } from '@app/action-types';
import { KEY_REFRESH_MS } from '@app/signature';
import { TEST_KEY, waitUntil } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { API_READY, AppProcess } from './support/app-process';
import { adminApi } from './support/admin-api';
import { basicAuth } from './support/console-browser';
import { httpRequestExample } from './support/fixtures';
import { freePort } from './support/free-port';

/** How soon every API process must refuse a revoked key (contract §13). */
const REVOCATION_DEADLINE_MS = 5_000;

/** Tenants outlive a spec's cleaning of the tables: each run names its own. */
const run = Math.random().toString(36).slice(2, 8);
const TEAM_C = `team-c-${run}`;
const TEAM_D = `team-d-${run}`;
const TEAM_E = `team-e-${run}`;
const TEAM_F = `team-f-${run}`;

describe('The admin API: tenants and run-time keys (contract §13)', () => {
  let api: ApiTestApp;
  let second: AppProcess;
  let secondUrl: string;

  beforeAll(async () => {
    api = await startCleanApiApp();
    const port = await freePort();
    // A process of its own, compiled as it starts: on a busy machine that takes a while.
    second = await new AppProcess('api', { PORT: port }).ready(API_READY, 90_000);
    secondUrl = `http://127.0.0.1:${port}`;
  }, 120_000);
  afterAll(async () => {
    second?.kill('SIGTERM');
    await second?.exited;
    await api?.close();
  });

  const admin = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    adminApi(api.client.baseUrl, method, path, body, headers);

  it('refuses every call without the admin login, and a change that is not JSON, storing nothing', async () => {
    expect((await admin('GET', '/tenants', undefined, {})).status).toBe(401);
    expect((await admin('POST', '/tenants', { id: 'nobody' }, basicAuth('admin', 'wrong'))).status).toBe(401);
    const form = await fetch(`${api.client.baseUrl}/admin/api/tenants`, {
      method: 'POST',
      headers: { ...basicAuth(), 'content-type': 'text/plain' },
      body: JSON.stringify({ id: 'from-a-form' }),
    });
    expect(form.status).toBe(415);
    expect((await form.json()).message).toMatch(/send Content-Type: application\/json, or no body at all/);
    expect((await admin('GET', '/tenants/from-a-form')).status).toBe(404);
    expect((await admin('GET', '/tenants/nobody')).status).toBe(404);
  });

  it('takes a POST that needs no body without one, and answers a new key so that no cache keeps it', async () => {
    const tenant = `bodyless-${run}`;
    expect((await admin('POST', '/tenants', { id: tenant })).status).toBe(201);
    // No body, no Content-Type: what `curl -X POST` sends.
    const made = await fetch(`${api.client.baseUrl}/admin/api/tenants/${tenant}/keys`, { method: 'POST', headers: basicAuth() });
    expect(made.status).toBe(201);
    expect(made.headers.get('cache-control')).toBe('no-store');
    expect(await made.json()).toEqual({ keyId: expect.stringMatching(/^key_/), secret: expect.any(String), createdAt: expect.any(String) });
    const withEmptyJson = await admin('POST', `/tenants/${tenant}/keys`, {});
    expect(withEmptyJson.status).toBe(201);
    expect((await admin('GET', `/tenants/${tenant}`)).body.keys).toHaveLength(2);

    // A POST that needs a body still says what is missing.
    const bodyless = await fetch(`${api.client.baseUrl}/admin/api/tenants`, { method: 'POST', headers: basicAuth() });
    expect(bodyless.status).toBe(400);
    expect((await bodyless.json()).message).toEqual(['id is required']);
  });

  it.each([
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }, /another site sent it \(Sec-Fetch-Site: cross-site\)/],
    ['Sec-Fetch-Site: same-site', { 'sec-fetch-site': 'same-site' }, /another site sent it \(Sec-Fetch-Site: same-site\)/],
    ['an Origin of another site', { origin: 'https://evil.example' }, /sent from another site/],
    ['an Origin of another port', { origin: 'http://127.0.0.1:1' }, /sent from another site/],
    ['an opaque Origin', { origin: 'null' }, /whose origin the browser hides \(Origin: null\)/],
    ['a Referer of another site', { referer: 'https://evil.example/page' }, /sent from another site/],
  ])('refuses a request the browser marks as cross-site (%s) with 403, changing nothing', async (_what, marker, reason) => {
    const tenant = `cross-${run}`;
    if ((await admin('GET', `/tenants/${tenant}`)).status === 404) expect((await admin('POST', '/tenants', { id: tenant })).status).toBe(201);
    const key = (await admin('POST', `/tenants/${tenant}/keys`)).body;
    const before = (await admin('GET', '/tenants')).body;

    const forged = { ...basicAuth(), ...marker };
    for (const [method, path, body] of [
      ['POST', '/tenants', { id: `forged-${run}` }],
      ['POST', `/tenants/${tenant}/keys`, undefined],
      ['PATCH', `/tenants/${tenant}`, { limits: { createRate: 1 } }],
      ['DELETE', `/tenants/${tenant}/keys/${key.keyId}`, undefined],
      ['GET', '/tenants', undefined],
    ] as const) {
      const answer = await admin(method, path, body, forged);
      expect({ method, path, status: answer.status }).toEqual({ method, path, status: 403 });
      expect(answer.body).toEqual({ statusCode: 403, error: 'Forbidden', message: expect.stringMatching(reason) });
      expect(answer.body.message).toMatch(/^This request was refused because .*Call it from a script, or use the console at \/admin\.$/);
    }
    expect((await admin('GET', '/tenants')).body).toEqual(before);
  });

  it("lets this service's own pages and the browser's own navigation through", async () => {
    const own = { ...basicAuth(), origin: api.client.baseUrl, 'sec-fetch-site': 'same-origin' };
    expect((await admin('GET', '/tenants', undefined, own)).status).toBe(200);
    expect((await admin('GET', '/tenants', undefined, { ...basicAuth(), 'sec-fetch-site': 'none' })).status).toBe(200);
    expect((await admin('GET', '/tenants', undefined, { ...basicAuth(), referer: `${api.client.baseUrl}/admin/tenants` })).status).toBe(200);
  });

  it('creates tenants with their limits, refuses a bad or taken id, and lists the tenants of API_KEYS with their key ids', async () => {
    const created = await admin('POST', '/tenants', { id: TEAM_C, limits: { createRate: 5 } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: TEAM_C,
      limits: { maxActiveActions: null, createRate: 5, maxConcurrency: null },
      keys: [],
      activeActions: 0,
    });
    expect((await admin('POST', '/tenants', { id: TEAM_C })).status).toBe(409);
    for (const body of [
      { id: 'Team_C' },
      { id: '' },
      { id: 'x', limits: { createRate: 0 } },
      { id: 'x', limits: { createRate: 'fast' } },
      { id: 'x', owner: 'me' },
    ]) {
      expect([body, (await admin('POST', '/tenants', body)).status]).toEqual([body, 400]);
    }
    expect((await admin('GET', '/tenants/x')).status).toBe(404);

    const changed = await admin('PATCH', `/tenants/${TEAM_C}`, { limits: { maxActiveActions: 10, createRate: null } });
    expect(changed.status).toBe(200);
    expect(changed.body.limits).toEqual({ maxActiveActions: 10, createRate: null, maxConcurrency: null });
    expect((await admin('PATCH', '/tenants/unknown', { limits: {} })).status).toBe(404);

    const list = (await admin('GET', '/tenants')).body.items as { id: string; keys: { keyId: string; source: string }[] }[];
    expect(list.map((tenant) => tenant.id)).toEqual(expect.arrayContaining(['default', 'team-b', TEAM_C]));
    const defaultKeys = list.find((tenant) => tenant.id === 'default')!.keys;
    expect(defaultKeys).toEqual(expect.arrayContaining([expect.objectContaining({ keyId: TEST_KEY.keyId, source: 'environment' })]));
    expect(JSON.stringify(list)).not.toContain(TEST_KEY.secret);
  });

  it('makes a key whose secret is shown once and stored encrypted, valid on every API process; a revoked one is refused by all within 5 s', async () => {
    await admin('POST', '/tenants', { id: TEAM_D });
    const made = await admin('POST', `/tenants/${TEAM_D}/keys`, {});
    expect(made.status).toBe(201);
    const key = { keyId: made.body.keyId as string, secret: made.body.secret as string };
    expect(key.secret.length).toBeGreaterThanOrEqual(32);
    const [stored] = await api.db.query(`SELECT secret_ciphertext FROM api_keys WHERE key_id = $1`, [key.keyId]);
    expect(stored.secret_ciphertext).not.toContain(key.secret);
    expect(JSON.stringify((await admin('GET', `/tenants/${TEAM_D}`)).body)).not.toContain(key.secret);
    expect((await admin('GET', `/tenants/${TEAM_D}`)).body.keys).toEqual([expect.objectContaining({ keyId: key.keyId, source: 'admin' })]);

    // This process knows it at once; the other reads it within its refresh.
    const here = new SignedHttp<any>({ baseUrl: api.client.baseUrl, ...key });
    const there = new SignedHttp<any>({ baseUrl: secondUrl, ...key });
    const created = await here.post('/actions', httpRequestExample());
    expect(created.status).toBe(201);
    await waitUntil('the other API process to accept the new key', async () => (await there.get('/actions')).status === 200, 2 * KEY_REFRESH_MS + 2_000);
    expect((await there.get(`/actions/${created.body.id}`)).status).toBe(200);
    // The key acts for its tenant alone.
    expect((await api.client.get(`/actions/${created.body.id}`)).status).toBe(404);

    const revoked = await admin('DELETE', `/tenants/${TEAM_D}/keys/${key.keyId}`);
    expect(revoked.status).toBe(204);
    const revokedAt = Date.now();
    expect((await here.get('/actions')).status).toBe(401);
    await waitUntil('every API process to refuse the revoked key', async () => (await there.get('/actions')).status === 401, REVOCATION_DEADLINE_MS);
    expect(Date.now() - revokedAt).toBeLessThan(REVOCATION_DEADLINE_MS);
    expect((await there.get('/actions')).body.message).toMatch(/Unknown key id/);

    expect((await admin('DELETE', `/tenants/${TEAM_D}/keys/${key.keyId}`)).status).toBe(404);
    expect((await admin('DELETE', `/tenants/default/keys/${TEST_KEY.keyId}`)).status).toBe(409);
    expect((await admin('POST', '/tenants/unknown/keys', {})).status).toBe(404);
  });

  it('sets what a tenant may message, refusing a grant it cannot keep and storing nothing; every API process applies it within MESSAGING_READ_MS', async () => {
    const nothing = { transports: [], patterns: [] };
    const created = await admin('POST', '/tenants', { id: TEAM_E, messaging: { transports: ['default'], patterns: ['audit.record'] } });
    expect(created.status).toBe(201);
    expect(created.body.messaging).toEqual({ transports: ['default'], patterns: ['audit.record'] });
    expect((await admin('POST', '/tenants', { id: `${TEAM_E}-plain` })).body.messaging).toEqual(nothing);

    const refusals: [unknown, RegExp][] = [
      [{ transports: ['billing'], patterns: [] }, /messaging\.transports\.0: transport "billing" is not configured; MESSAGE_TRANSPORTS names default/],
      [{ transports: [], patterns: ['billing.*'] }, /messaging\.patterns\.0: "billing\.\*" is not a message pattern/],
      [{ transports: [], patterns: ['billing.>'] }, /messaging\.patterns\.0: "billing\.>" is not a message pattern/],
      [{ transports: [], patterns: ['a b'] }, /messaging\.patterns\.0: "a b" is not a message pattern/],
      [{ transports: [], patterns: ['a\r\nPUB x 1'] }, /messaging\.patterns\.0: [\s\S]* is not a message pattern/],
      [{ transports: [], patterns: [''] }, /each value in patterns must be longer than or equal to 1 and shorter than or equal to 200 characters/],
      [
        { transports: [], patterns: ['p'.repeat(201)] },
        /each value in patterns must be longer than or equal to 1 and shorter than or equal to 200 characters/,
      ],
      [{ transports: [], patterns: Array.from({ length: 101 }, (_, i) => `p${i}`) }, /patterns must contain no more than 100 elements/],
      [{ transports: 'default', patterns: [] }, /transports must be an array/],
      [{ transports: [], patterns: [7] }, /each value in patterns must be a string/],
      [{ transports: [] }, /^messaging\.patterns is required$/m],
      [{ transports: [], patterns: [], everything: true }, /property everything should not exist/],
    ];
    for (const [messaging, problem] of refusals) {
      const patch = await admin('PATCH', `/tenants/${TEAM_E}`, { messaging, limits: { createRate: 3 } });
      expect([messaging, patch.status]).toEqual([messaging, 400]);
      expect([messaging, [patch.body.message].flat().join('\n')]).toEqual([messaging, expect.stringMatching(problem)]);
      expect((await admin('POST', '/tenants', { id: `${TEAM_E}-x`, messaging })).status).toBe(400);
    }
    expect((await admin('POST', '/tenants', { id: `${TEAM_E}-x`, messaging: null })).status).toBe(400);
    expect((await admin('GET', `/tenants/${TEAM_E}-x`)).status).toBe(404);
    const unchanged = (await admin('GET', `/tenants/${TEAM_E}`)).body;
    expect(unchanged.messaging).toEqual({ transports: ['default'], patterns: ['audit.record'] });
    expect(unchanged.limits.createRate).toBeNull();

    // The other process reads the grant it was not told of within MESSAGING_READ_MS.
    const key = (await admin('POST', `/tenants/${TEAM_E}/keys`, {})).body as { keyId: string; secret: string };
    const there = new SignedHttp<any>({ baseUrl: secondUrl, ...key });
    await waitUntil('the other API process to accept the new key', async () => (await there.get('/actions')).status === 200, 2 * KEY_REFRESH_MS + 2_000);
    const downgrade = { action: 'MESSAGE', executionTime: Date.now() + 3_600_000, data: { pattern: 'billing.downgrade' } };
    expect((await there.post('/actions', downgrade)).status).toBe(400);
    const granted = await admin('PATCH', `/tenants/${TEAM_E}`, { messaging: { transports: ['default'], patterns: ['billing.'] } });
    expect(granted.body.messaging).toEqual({ transports: ['default'], patterns: ['billing.'] });
    const grantedAt = Date.now();
    await waitUntil(
      'the other API process to apply the grant',
      async () => (await there.post('/actions', downgrade)).status === 201,
      MESSAGING_READ_MS + 2_000,
    );
    expect(Date.now() - grantedAt).toBeLessThan(MESSAGING_READ_MS + 1_000);

    const forgotten = await admin('PATCH', `/tenants/${TEAM_E}`, { messaging: null });
    expect(forgotten.body.messaging).toEqual(nothing);
  });

  it('is reached through the typed admin client: tenants, messaging and keys; a refusal is a PunctualError with the status', async () => {
    const client = new PunctualAdmin({ baseUrl: api.client.baseUrl, user: 'admin', password: 'admin-password' });
    const created = await client.createTenant({ id: TEAM_F, limits: { createRate: 9 }, messaging: { transports: ['default'], patterns: ['billing.'] } });
    expect(created).toMatchObject({ id: TEAM_F, limits: { createRate: 9 }, messaging: { transports: ['default'], patterns: ['billing.'] }, keys: [] });
    expect((await client.updateTenant(TEAM_F, { messaging: null })).messaging).toEqual({ transports: [], patterns: [] });
    const key = await client.createKey(TEAM_F);
    expect((await client.getTenant(TEAM_F)).keys).toEqual([{ keyId: key.keyId, source: 'admin', createdAt: key.createdAt }]);
    expect((await client.listTenants()).items.map((tenant) => tenant.id)).toContain(TEAM_F);
    await client.revokeKey(TEAM_F, key.keyId);
    expect((await client.getTenant(TEAM_F)).keys).toEqual([]);

    const refusal = (call: Promise<unknown>) =>
      call.then(
        () => null,
        (error: unknown) => error,
      );
    const taken = await refusal(client.createTenant({ id: TEAM_F }));
    expect(taken).toBeInstanceOf(PunctualError);
    expect(taken).toMatchObject({ statusCode: 409 });
    const badGrant = await refusal(client.updateTenant(TEAM_F, { messaging: { transports: ['nowhere'], patterns: [] } }));
    expect(badGrant).toMatchObject({ statusCode: 400, problems: [expect.stringContaining('transport "nowhere" is not configured')] });
    const wrongLogin = await refusal(new PunctualAdmin({ baseUrl: api.client.baseUrl, user: 'admin', password: 'wrong' }).listTenants());
    expect(wrongLogin).toMatchObject({ statusCode: 401 });
  });
});
