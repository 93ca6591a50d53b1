import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { loadConfig } from '@app/config';
import { TenantsRepository } from '@app/database';
import { AttemptSigner, KeyRegistry, SigningKeys } from '@app/signature';
import { Clock } from '@app/domain';
import { MAX_RETRY_LATER_MS, PermanentFulfillmentError, RetryLaterError } from '@punctual/sdk';
import { EgressPolicy, HostResolver, OutboundClient } from '@app/outbound';
import { fulfillmentContext } from '@app/testing';
import { HttpRequestFulfillment } from './http-request.fulfillment';

interface Seen {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

describe('HttpRequestFulfillment (against a local server)', () => {
  // The test environment: key test-key, and 127.0.0.1 allowed as a destination.
  const config = loadConfig();
  // The keys of API_KEYS alone: these cases never need a key from Postgres (signing-keys.spec.ts reads them).
  const keys = new SigningKeys(new KeyRegistry(config, null as unknown as TenantsRepository));
  const client = new OutboundClient(new EgressPolicy(config.outbound.allowedHosts), new HostResolver());
  const signer = new AttemptSigner(keys, new Clock());
  /** A context that signs as the worker's does, with the key the action names among its tenant's. */
  const signedContext = (overrides: Parameters<typeof fulfillmentContext>[0] = {}) => {
    const base = fulfillmentContext(overrides);
    return { ...base, sign: (body: string) => signer.sign(base, body) };
  };
  const fulfillment = new HttpRequestFulfillment(client, new Clock());
  const context = signedContext();
  const receiverOfTestKey = new Webhook(Buffer.from('test-secret-0123456789', 'utf8').toString('base64'));
  let server: Server;
  let seen: Seen[];
  /** `echo`: the body is the request's target and headers, as a debugging endpoint answers. */
  let reply: { status: number; body: string; delayMs?: number; headers?: Record<string, string>; echo?: boolean };
  let url: string;
  /** What messages name of `url`: its host and port. */
  let host: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        seen.push({ method: req.method!, path: req.url!, headers: req.headers, body });
        const answer = reply.echo ? JSON.stringify({ target: req.url, full: `http://${req.headers.host}${req.url}`, headers: req.headers }) : reply.body;
        setTimeout(() => res.writeHead(reply.status, reply.headers).end(answer), reply.delayMs ?? 0);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    url = `http://${host}/hook`;
  });
  beforeEach(() => {
    seen = [];
    reply = { status: 200, body: 'ok' };
  });
  afterAll(async () => {
    client.onApplicationShutdown();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('POSTs a JSON body with the idempotency key and notes the status and the first 1 KiB of the body', async () => {
    reply = { status: 201, body: 'x'.repeat(3000) };
    const result = await fulfillment.fulfill({ url, body: { a: 1 } }, context);
    expect(result.note).toBe(`HTTP 201: ${'x'.repeat(1024)}`);
    expect(seen).toEqual([expect.objectContaining({ method: 'POST', body: '{"a":1}' })]);
    expect(seen[0].headers['content-type']).toBe('application/json');
    expect(seen[0].headers['idempotency-key']).toBe('a1b2:3');
  });

  it('signs every call with the creating API key so that a Standard Webhooks receiver verifies it', async () => {
    await fulfillment.fulfill({ url, body: { a: 1 } }, context);
    await fulfillment.fulfill({ url, method: 'GET' }, signedContext({ idempotencyKey: 'a1b2:4' }));
    const [post, get] = seen;
    expect(post.headers['webhook-id']).toBe('a1b2:3');
    expect(Math.abs(Number(post.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(5);
    expect(receiverOfTestKey.verify(post.body, post.headers as Record<string, string>)).toEqual({ a: 1 });
    expect(get.headers['webhook-id']).toBe('a1b2:4');
    expect(() => receiverOfTestKey.verify(get.body, get.headers as Record<string, string>, { jsonParse: false })).not.toThrow();
    const rotated = new Webhook(Buffer.from('rotated-secret-9876543210', 'utf8').toString('base64'));
    expect(() => rotated.verify(post.body, post.headers as Record<string, string>)).toThrow('No matching signature found');
  });

  it('signs with the secret of whichever key last set the data', async () => {
    await fulfillment.fulfill({ url, body: 'hello' }, signedContext({ signingKeyId: 'rotated-key' }));
    const rotated = new Webhook(Buffer.from('rotated-secret-9876543210', 'utf8').toString('base64'));
    expect(() => rotated.verify(seen[0].body, seen[0].headers as Record<string, string>, { jsonParse: false })).not.toThrow();
  });

  it("signs with the tenant's oldest configured key when no key is recorded", async () => {
    const result = await fulfillment.fulfill({ url }, signedContext({ signingKeyId: null }));
    expect(result.note).toBe('HTTP 200: ok');
    expect(seen[0].headers).toMatchObject({ 'webhook-id': 'a1b2:3', 'idempotency-key': 'a1b2:3' });
    expect(() => receiverOfTestKey.verify(seen[0].body, seen[0].headers as Record<string, string>, { jsonParse: false })).not.toThrow();
  });

  it("never signs with another tenant's key, whatever key id the action names", async () => {
    const otherTenant = new Webhook(Buffer.from('other-tenant-secret-0123', 'utf8').toString('base64'));
    await fulfillment.fulfill({ url }, signedContext({ signingKeyId: 'other-tenant-key' }));
    expect(() => otherTenant.verify(seen[0].body, seen[0].headers as Record<string, string>, { jsonParse: false })).toThrow();
    expect(() => receiverOfTestKey.verify(seen[0].body, seen[0].headers as Record<string, string>, { jsonParse: false })).not.toThrow();
    await fulfillment.fulfill({ url }, signedContext({ tenantId: 'team-b', signingKeyId: 'test-key' }));
    expect(() => otherTenant.verify(seen[1].body, seen[1].headers as Record<string, string>, { jsonParse: false })).not.toThrow();
  });

  it('never sends Host, Forwarded or X-Forwarded-* headers that a row stored before they were refused holds', async () => {
    const headers = {
      Host: 'admin.internal.example',
      Forwarded: 'for=10.0.0.1',
      'X-Forwarded-For': '10.0.0.1',
      'x-forwarded-host': 'admin',
      'X-Extra': 'yes',
    };
    await fulfillment.fulfill({ url, headers }, context);
    expect(seen[0].headers).toMatchObject({ host, 'x-extra': 'yes' });
    expect(Object.keys(seen[0].headers).filter((name) => name === 'forwarded' || name.startsWith('x-forwarded-'))).toEqual([]);
  });

  it('never lets stored data override the headers Punctual sets', async () => {
    const headers = { 'Webhook-Signature': 'v1,forged', 'idempotency-key': 'mine', 'X-Extra': 'yes' };
    await fulfillment.fulfill({ url, headers }, context);
    expect(seen[0].headers).toMatchObject({ 'idempotency-key': 'a1b2:3', 'x-extra': 'yes' });
    expect(seen[0].headers['webhook-signature']).not.toContain('forged');
    expect(() => receiverOfTestKey.verify(seen[0].body, seen[0].headers as Record<string, string>, { jsonParse: false })).not.toThrow();
  });

  it('sends a string body as it is and keeps a given content-type', async () => {
    await fulfillment.fulfill({ url, method: 'PUT', body: 'plain words', headers: { 'Content-Type': 'text/plain', 'X-Extra': 'yes' } }, context);
    expect(seen[0]).toMatchObject({ method: 'PUT', body: 'plain words' });
    expect(seen[0].headers).toMatchObject({ 'content-type': 'text/plain', 'x-extra': 'yes' });
  });

  it('sends arrays as JSON and no body for GET', async () => {
    await fulfillment.fulfill({ url, body: [1, 2] }, context);
    await fulfillment.fulfill({ url, method: 'GET', body: { ignored: true } }, context);
    expect(seen.map((s) => [s.method, s.body])).toEqual([
      ['POST', '[1,2]'],
      ['GET', ''],
    ]);
  });

  it('fails on a non-2xx answer with the status in the message, never the request headers', async () => {
    reply = { status: 503, body: 'busy' };
    const attempt = fulfillment.fulfill({ url, headers: { Authorization: 'Bearer s3cret' } }, context);
    await expect(attempt).rejects.toThrow(`HTTP 503: busy (from ${host})`);
    await expect(attempt).rejects.not.toThrow(/s3cret/);
    await expect(attempt).rejects.not.toBeInstanceOf(PermanentFulfillmentError);
  });

  it.each([429, 503])('asks, on a %s with Retry-After in seconds, to be retried after that delay', async (status) => {
    reply = { status, body: 'slow down', headers: { 'retry-after': '2' } };
    const attempt = fulfillment.fulfill({ url }, context);
    await expect(attempt).rejects.toBeInstanceOf(RetryLaterError);
    await expect(attempt).rejects.toMatchObject({ delayMs: 2000, message: `HTTP ${status}: slow down (from ${host}); retry asked in 2000 ms` });
  });

  it('asks to be retried at the HTTP date of a Retry-After, and no later than a day from now', async () => {
    reply = { status: 429, body: 'later', headers: { 'retry-after': new Date(Date.now() + 60_000).toUTCString() } };
    const error = (await fulfillment.fulfill({ url }, context).catch((e: unknown) => e)) as RetryLaterError;
    expect(error.delayMs).toBeGreaterThan(55_000);
    expect(error.delayMs).toBeLessThanOrEqual(60_000);
    reply = { status: 503, body: 'later', headers: { 'retry-after': String(7 * 24 * 3600) } };
    await expect(fulfillment.fulfill({ url }, context)).rejects.toMatchObject({ delayMs: MAX_RETRY_LATER_MS });
  });

  it('keeps the backoff for a Retry-After it cannot read, or on another status', async () => {
    reply = { status: 429, body: 'later', headers: { 'retry-after': 'soon' } };
    await expect(fulfillment.fulfill({ url }, context)).rejects.not.toBeInstanceOf(RetryLaterError);
    reply = { status: 500, body: 'broken', headers: { 'retry-after': '2' } };
    await expect(fulfillment.fulfill({ url }, context)).rejects.not.toBeInstanceOf(RetryLaterError);
  });

  it('fails on a redirect without following it', async () => {
    reply = { status: 302, body: 'moved', headers: { location: '/elsewhere' } };
    await expect(fulfillment.fulfill({ url }, context)).rejects.toThrow(`HTTP 302: moved (from ${host}; redirects are not followed)`);
    expect(seen.map((s) => s.path)).toEqual(['/hook']);
  });

  it('fails, to be retried, on an answer over 1 MiB', async () => {
    reply = { status: 200, body: 'y'.repeat(1024 * 1024 + 1) };
    const attempt = fulfillment.fulfill({ url }, context);
    await expect(attempt).rejects.toThrow(`HTTP_REQUEST to ${host} failed: the response is larger than 1 MiB`);
    await expect(attempt).rejects.not.toBeInstanceOf(PermanentFulfillmentError);
  });

  it('fails the action at once, without calling, when the destination is not allowed', async () => {
    const strict = new OutboundClient(new EgressPolicy(), new HostResolver());
    const attempt = new HttpRequestFulfillment(strict, new Clock()).fulfill({ url }, context);
    await expect(attempt).rejects.toBeInstanceOf(PermanentFulfillmentError);
    await expect(attempt).rejects.toThrow(`HTTP_REQUEST to ${host} not sent: the destination is not allowed (127.0.0.1 is a loopback address)`);
    expect(seen).toEqual([]);
    strict.onApplicationShutdown();
  });

  it('fails after timeoutMs', async () => {
    reply = { status: 200, body: 'late', delayMs: 500 };
    await expect(fulfillment.fulfill({ url, timeoutMs: 100 }, context)).rejects.toThrow(`HTTP_REQUEST to ${host} timed out after 100 ms`);
  });

  it('stops when the attempt is aborted', async () => {
    reply = { status: 200, body: 'late', delayMs: 500 };
    const controller = new AbortController();
    const attempt = fulfillment.fulfill({ url }, signedContext({ signal: controller.signal }));
    setTimeout(() => controller.abort(), 50);
    await expect(attempt).rejects.toThrow(`HTTP_REQUEST to ${host} stopped: the attempt was cancelled`);
  });

  it('fails when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const nowhere = `http://127.0.0.1:${port}/none?token=secret-token-1`;
    await expect(fulfillment.fulfill({ url: nowhere }, context)).rejects.toThrow(`HTTP_REQUEST to 127.0.0.1:${port} failed: ECONNREFUSED`);
  });

  describe('names the host, never the URL, a header value or the signature', () => {
    const secretUrl = () => `http://user:pass-word-1@${host}/hook/tok-path-secret?token=query-secret-1&plain=query%20secret%202`;
    // User information is refused at create, but a row stored before may hold it: Node sends it as basic auth.
    const secretHeaders = { 'X-Token': 'Bearer header-secret-1', 'X-Api-Key': 'header-secret-2' };
    const basicAuth = Buffer.from('user:pass-word-1').toString('base64');
    const secrets = [
      'pass-word-1',
      'tok-path-secret',
      'query-secret-1',
      'query%20secret%202',
      'query secret 2',
      'header-secret-1',
      'header-secret-2',
      basicAuth,
      'v1,',
    ];

    it.each([
      [500, 'HTTP 500: ', '(from HOST)'],
      [302, 'HTTP 302: ', '(from HOST; redirects are not followed)'],
      [200, 'HTTP 200: ', ''],
    ])('in the note of a %s answer that echoes the whole request back', async (status, start, end) => {
      reply = { status, body: '', echo: true };
      const outcome = await fulfillment.fulfill({ url: secretUrl(), headers: secretHeaders }, context).then(
        (result) => result.note ?? '',
        (error: Error) => error.message,
      );
      expect(seen[0].headers.authorization).toBe(`Basic ${basicAuth}`);
      expect(outcome.startsWith(start) && outcome.endsWith(end.replace('HOST', host))).toBe(true);
      expect(outcome).toContain('[redacted]');
      for (const secret of secrets) expect(outcome).not.toContain(secret);
    });
  });
});
