import { INestApplicationContext } from '@nestjs/common';
import { LookupAddress } from 'node:dns';
import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { HostResolver } from '@app/outbound';
import { HttpReceiver, ROTATED_KEY, TEST_KEY, waitUntil } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { ownAddress } from './support/own-address';
import { startWorker } from './support/worker-test-app';

const MIB = 1024 * 1024;

/** A local server that records what reaches it, and counts connections even when no request follows. */
class LocalServer {
  readonly requests: { path: string; headers: IncomingMessage['headers']; body: string }[] = [];
  connections = 0;
  private readonly server: Server;

  constructor(private readonly route: (req: IncomingMessage, res: ServerResponse) => void) {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        this.requests.push({ path: req.url!, headers: req.headers, body });
        this.route(req, res);
      });
    }).on('connection', () => (this.connections += 1));
  }

  async listen(host: string): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, host, resolve));
    return this;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  callsTo(path: string) {
    return this.requests.filter((r) => r.path === path);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

describe('Outbound calls made by the worker', () => {
  let api: ApiTestApp;
  let worker: INestApplicationContext;
  let streamed = 0;
  const site = new LocalServer((req, res) => {
    if (req.url === '/from') return res.writeHead(302, { location: '/to' }).end('moved');
    // Echoes what it was sent, as a failing debug endpoint does.
    if (req.url!.startsWith('/down')) return res.writeHead(500).end(`cannot serve ${req.url} for ${req.headers.authorization}`);
    if (req.url !== '/endless') return res.writeHead(200).end('ok');
    // 50 MiB, written as fast as the reader takes it.
    const chunk = Buffer.alloc(64 * 1024, 'z');
    const pump = () => {
      while (streamed < 50 * MIB && res.write(chunk)) streamed += chunk.length;
      if (streamed < 50 * MIB) res.once('drain', pump);
      else res.end();
    };
    res.writeHead(200);
    pump();
  });
  // Listens on another loopback address, which this worker's allow-list does not hold.
  const internal = new LocalServer((_req, res) => res.writeHead(200).end('internal secrets'));
  // Listens on this machine's own address, as a service bound to every interface does.
  const own = ownAddress();
  const onOwnAddress = new LocalServer((_req, res) => res.writeHead(200).end('own secrets'));
  // Receives the lifecycle webhooks of actions that name it as their callbackUrl.
  const callbacks = new HttpReceiver();

  beforeAll(async () => {
    await site.listen('127.0.0.1');
    await internal.listen('127.0.0.2');
    await onOwnAddress.listen(own.address);
    await callbacks.start();
    api = await startCleanApiApp();
    // These names' DNS answers point inside, as a rebinding attacker's would; no other name is used here.
    const answers: Record<string, LookupAddress[]> = {
      'rebound.test': [{ address: '127.0.0.2', family: 4 }],
      'self.test': [{ address: own.address, family: own.family }],
    };
    const resolver = {
      resolve: async (hostName: string): Promise<LookupAddress[]> => {
        const addresses = answers[hostName];
        if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostName}`), { code: 'ENOTFOUND' });
        return addresses;
      },
    };
    worker = await startWorker({
      env: { OUTBOUND_ALLOWED_HOSTS: '127.0.0.1', MAX_RETRIES: '1', BACKOFF_DELAYS_MS: '50' },
      overrides: [{ provide: HostResolver, useValue: resolver }],
    });
  });
  afterAll(async () => {
    await worker.close();
    await api.close();
    await site.stop();
    await internal.stop();
    await onOwnAddress.stop();
    await callbacks.stop();
  });

  async function run(url: string, key = TEST_KEY, body: unknown = { hello: 'world' }) {
    const created = await api.client.post('/actions', { action: 'HTTP_REQUEST', executionTime: Date.now(), data: { url, body } }, key);
    expect(created.status).toBe(201);
    return waitUntil(`action ${created.body.id} to finish`, async () => {
      const action = (await api.client.get(`/actions/${created.body.id}`)).body;
      return ['COMPLETED', 'FAILED'].includes(action.status) ? action : null;
    });
  }
  const historyOf = async (id: string) => (await api.client.get(`/actions/${id}/history`)).body;

  it.each([
    ['a refused address', () => `rebound.test:${internal.port}`, '/latest/meta-data', () => internal],
    ["this machine's own address", () => `self.test:${onOwnAddress.port}`, '/metrics', () => onOwnAddress],
  ])('fails an action at once when its host name resolves to %s, without connecting there', async (_what, host, path, server) => {
    const action = await run(`http://${host()}${path}`);
    expect(action).toMatchObject({ status: 'FAILED', retryCount: 1 }); // one failed attempt, though MAX_RETRIES allows another
    const history = await historyOf(action.id);
    expect(history.filter((h: any) => h.to === 'IN_PROGRESS')).toHaveLength(1);
    const name = host().split(':')[0];
    expect(history.at(-1)).toMatchObject({
      from: 'IN_PROGRESS',
      to: 'FAILED',
      note: `HTTP_REQUEST to ${host()} not sent: the destination is not allowed (${name} resolves to no allowed address)`,
    });
    expect(server().connections).toBe(0);
  });

  it('keeps the URL and header values of a failing call out of notes, lastError and webhook events', async () => {
    const secrets = ['query-secret-7f3a', 'header-secret-91bc'];
    const url = `http://127.0.0.1:${site.port}/down?token=${secrets[0]}`;
    const created = await api.client.post('/actions', {
      action: 'HTTP_REQUEST',
      executionTime: Date.now(),
      data: { url, headers: { Authorization: `Bearer ${secrets[1]}` } },
      callbackUrl: callbacks.url('/events'),
    });
    expect(created.status).toBe(201);
    const action = await waitUntil('the action to fail', async () => {
      const current = (await api.client.get(`/actions/${created.body.id}`)).body;
      return current.status === 'FAILED' ? current : null;
    });
    const events = await waitUntil('both events at the callback', () => {
      const received = callbacks.callsTo('/events').map((call) => JSON.parse(call.body));
      return received.length >= 2 ? received : null;
    });
    const notes = (await historyOf(action.id)).filter((h: any) => h.from === 'IN_PROGRESS').map((h: any) => h.note);
    const eventNotes = events.map((event: any) => event.data.note);
    expect(events.map((event: any) => event.type).sort()).toEqual(['action.attempt_failed', 'action.failed']);
    for (const text of [action.lastError, ...notes, ...eventNotes]) {
      expect(text).toMatch(new RegExp(`^HTTP 500: .*\\(from 127\\.0\\.0\\.1:${site.port}\\)$`));
      for (const secret of secrets) expect(text).not.toContain(secret);
    }
    expect(notes).toHaveLength(2);
    // What the receiver echoed back is masked; the client's own data is shown as it gave it.
    expect(action.lastError).toContain('[redacted]');
    expect(events[0].data.action.data.url).toBe(url);
  });

  it('does not follow a redirect: the 3xx fails the attempt, is retried, and the target never sees a call', async () => {
    const action = await run(`http://127.0.0.1:${site.port}/from`);
    expect(action).toMatchObject({ status: 'FAILED', retryCount: 2, lastError: expect.stringMatching(/^HTTP 302: moved .*redirects are not followed/) });
    expect(site.callsTo('/from')).toHaveLength(2);
    expect(site.callsTo('/to')).toHaveLength(0);
  });

  it('stops reading a 50 MiB answer at 1 MiB, fails the attempt quickly, and goes on running other actions', async () => {
    const started = Date.now();
    const action = await run(`http://127.0.0.1:${site.port}/endless`);
    expect(action.status).toBe('FAILED');
    expect(action.lastError).toMatch(/failed: the response is larger than 1 MiB/);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(streamed).toBeLessThan(50 * MIB);
    const next = await run(`http://127.0.0.1:${site.port}/after-endless`);
    expect(next.status).toBe('COMPLETED');
  });

  it('signs each call with the secret of the API key that created the action', async () => {
    for (const key of [TEST_KEY, ROTATED_KEY]) {
      const path = `/signed-by-${key.keyId}`;
      const action = await run(`http://127.0.0.1:${site.port}${path}`, key, { signed: key.keyId });
      expect(action.status).toBe('COMPLETED');
      const [call] = site.callsTo(path);
      expect(call.headers['webhook-id']).toBe(`${action.id}:1`);
      const receiver = new Webhook(Buffer.from(key.secret, 'utf8').toString('base64'));
      expect(receiver.verify(call.body, call.headers as Record<string, string>)).toEqual({ signed: key.keyId });
    }
  });
});
