import { createHash, randomUUID } from 'node:crypto';
import { SIGNATURE_HEADERS, computeSignature, signRequest, signaturePayload } from '@punctual/contract';
import { ROTATED_KEY, TEST_KEY } from '@app/testing';
import { ApiTestApp, startApiApp } from './support/api-test-app';
import { emptyTables, httpRequestExample, storedCounts } from './support/fixtures';

describe('Signed requests (contract §1) over HTTP', () => {
  let api: ApiTestApp;
  const body = JSON.stringify(httpRequestExample());
  const nowSeconds = () => Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    api = await startApiApp();
    await emptyTables(api.db);
  });
  afterAll(() => api.close());

  function send(headers: Record<string, string>, rawBody = body, path = '/actions') {
    return fetch(api.client.baseUrl + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: rawBody });
  }
  const signed = (overrides: Partial<Parameters<typeof signRequest>[0]> = {}) =>
    signRequest({ ...TEST_KEY, method: 'POST', pathWithQuery: '/actions', body, ...overrides });

  async function expectUnauthorized(headers: Record<string, string>, message: RegExp, rawBody = body) {
    const before = await storedCounts(api.db);
    const response = await send(headers, rawBody);
    expect(response.status).toBe(401);
    const json = (await response.json()) as { message: string };
    expect(json.message).toMatch(message);
    expect(await storedCounts(api.db)).toEqual(before);
  }

  it.each(['X-Punctual-Key', 'X-Punctual-Timestamp', 'X-Punctual-Nonce', 'X-Punctual-Signature'])('missing %s → 401', async (header) => {
    const headers = signed();
    const name = Object.keys(headers).find((h) => h.toLowerCase() === header.toLowerCase())!;
    delete headers[name];
    await expectUnauthorized(headers, new RegExp(header, 'i'));
  });

  it('unknown key → 401', async () => {
    await expectUnauthorized(signed({ keyId: 'nobody' }), /Unknown key id 'nobody'/);
  });

  it('wrong secret → 401', async () => {
    await expectUnauthorized(signed({ secret: 'not-the-secret' }), /Signature does not match/);
  });

  it('signature of a different body → 401', async () => {
    await expectUnauthorized(signed(), /Signature does not match/, JSON.stringify(httpRequestExample(5000)));
  });

  it('timestamp too old and too new → 401', async () => {
    await expectUnauthorized(signed({ timestamp: nowSeconds() - 301 }), /away from server time/);
    await expectUnauthorized(signed({ timestamp: nowSeconds() + 301 }), /away from server time/);
  });

  it('malformed nonce → 401', async () => {
    await expectUnauthorized(signed({ nonce: 'short' }), /nonce/i);
  });

  it('replay of an accepted request, and reuse of its nonce → 401', async () => {
    const headers = signed();
    expect((await send(headers)).status).toBe(201);
    await expectUnauthorized(headers, /Nonce already used/);
    const reused = signed({ nonce: headers[Object.keys(headers).find((h) => /nonce/i.test(h))!] });
    await expectUnauthorized(reused, /Nonce already used/);
  });

  it('two identical requests with fresh nonces are both accepted', async () => {
    expect((await send(signed({ nonce: randomUUID() }))).status).toBe(201);
    expect((await send(signed({ nonce: randomUUID() }))).status).toBe(201);
  });

  it('a second (rotated) key is accepted', async () => {
    expect((await send(signed(ROTATED_KEY))).status).toBe(201);
  });

  it('the path with its query string is signed', async () => {
    const headers = signRequest({ ...TEST_KEY, method: 'GET', pathWithQuery: '/actions?status=FAILED', body: '' });
    const ok = await fetch(`${api.client.baseUrl}/actions?status=FAILED`, { headers });
    expect(ok.status).toBe(200);
    const tampered = signRequest({ ...TEST_KEY, method: 'GET', pathWithQuery: '/actions?status=FAILED', body: '' });
    expect((await fetch(`${api.client.baseUrl}/actions?status=PENDING`, { headers: tampered })).status).toBe(401);
  });

  it('a mismatch names what the server signed: the path with its query, the body as received, never what it expected', async () => {
    // The two classic slips: the query left out of the signed path, and the body serialised again after signing.
    const headers = signed();
    const resent = JSON.stringify(JSON.parse(body), null, 2);
    const response = await fetch(`${api.client.baseUrl}/actions?dryRun=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: resent,
    });
    expect(response.status).toBe(401);
    const { message } = (await response.json()) as { message: string };
    const sha = createHash('sha256').update(resent).digest('hex');
    expect(message).toBe(
      `Signature does not match for key '${TEST_KEY.keyId}': sign TIMESTAMP\\nNONCE\\nMETHOD\\nPATH_WITH_QUERY\\nRAW_BODY with the key's secret (HMAC-SHA256, hex). ` +
        `The server saw METHOD POST, PATH_WITH_QUERY "/actions?dryRun=1" and a RAW_BODY of ${Buffer.byteLength(resent)} bytes with SHA-256 ${sha}`,
    );
    const expected = computeSignature(
      TEST_KEY.secret,
      signaturePayload(headers[SIGNATURE_HEADERS.timestamp], headers[SIGNATURE_HEADERS.nonce], 'POST', '/actions?dryRun=1', resent),
    );
    expect(message).not.toContain(expected);
    expect(message).not.toContain(TEST_KEY.secret);
  });
});
