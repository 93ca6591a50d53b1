import { Logger } from '@nestjs/common';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { FulfillmentContext } from '@app/fulfillment';
import { HttpRequestFulfillment } from './http-request.fulfillment';

interface Seen {
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
}

describe('HttpRequestFulfillment (against a local server)', () => {
  const fulfillment = new HttpRequestFulfillment();
  const context: FulfillmentContext = { actionId: 'a1b2', occurrence: 3, attempt: 1, idempotencyKey: 'a1b2:3', scheduledAt: new Date(), metadata: {}, logger: new Logger('spec') };
  let server: Server;
  let seen: Seen[];
  let reply: { status: number; body: string; delayMs?: number };
  let url: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        seen.push({ method: req.method!, headers: req.headers, body });
        setTimeout(() => res.writeHead(reply.status).end(reply.body), reply.delayMs ?? 0);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });
  beforeEach(() => {
    seen = [];
    reply = { status: 200, body: 'ok' };
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('POSTs a JSON body with the idempotency key and notes the status and body', async () => {
    reply = { status: 201, body: 'x'.repeat(3000) };
    const result = await fulfillment.fulfill({ url, body: { a: 1 } }, context);
    expect(result.note).toBe(`HTTP 201: ${'x'.repeat(1024)}`);
    expect(seen).toEqual([expect.objectContaining({ method: 'POST', body: '{"a":1}' })]);
    expect(seen[0].headers['content-type']).toBe('application/json');
    expect(seen[0].headers['idempotency-key']).toBe('a1b2:3');
  });

  it('sends a string body as it is and keeps a given content-type', async () => {
    await fulfillment.fulfill({ url, method: 'PUT', body: 'plain words', headers: { 'Content-Type': 'text/plain', 'X-Extra': 'yes' } }, context);
    expect(seen[0]).toMatchObject({ method: 'PUT', body: 'plain words' });
    expect(seen[0].headers).toMatchObject({ 'content-type': 'text/plain', 'x-extra': 'yes' });
  });

  it('sends arrays as JSON and no body for GET', async () => {
    await fulfillment.fulfill({ url, body: [1, 2] }, context);
    await fulfillment.fulfill({ url, method: 'GET', body: { ignored: true } }, context);
    expect(seen.map((s) => [s.method, s.body])).toEqual([['POST', '[1,2]'], ['GET', '']]);
  });

  it('fails on a non-2xx answer with the status in the message', async () => {
    reply = { status: 503, body: 'busy' };
    await expect(fulfillment.fulfill({ url }, context)).rejects.toThrow(`HTTP 503: busy (from POST ${url})`);
  });

  it('fails after timeoutMs', async () => {
    reply = { status: 200, body: 'late', delayMs: 500 };
    await expect(fulfillment.fulfill({ url, timeoutMs: 100 }, context)).rejects.toThrow(`HTTP_REQUEST to ${url} timed out after 100 ms`);
  });

  it('fails when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const nowhere = `http://127.0.0.1:${port}/none`;
    await expect(fulfillment.fulfill({ url: nowhere }, context)).rejects.toThrow(`HTTP_REQUEST to ${nowhere} failed: ECONNREFUSED`);
  });
});
