import { SignedHttp } from '@punctual/client';
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

describe('The admin API: tenants and run-time keys (contract §13)', () => {
  let api: ApiTestApp;
  let second: AppProcess;
  let secondUrl: string;

  beforeAll(async () => {
    api = await startCleanApiApp();
    const port = await freePort();
    second = await new AppProcess('api', { PORT: port }).ready(API_READY);
    secondUrl = `http://127.0.0.1:${port}`;
  });
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
    expect((await bodyless.json()).message).toEqual(expect.arrayContaining([expect.stringMatching(/^id must be/)]));
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
});
