import { LookupAddress } from 'node:dns';
import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { parseAllowedHosts } from '@app/config';
import { EgressPolicy } from '../egress/egress-policy';
import { HostResolver } from './host-resolver';
import { MAX_RESPONSE_BYTES, OutboundClient, OutboundRequest } from './outbound-client';
import { DestinationNotAllowedError, InvalidOutboundRequestError, OutboundAbortedError, OutboundError, ResponseTooLargeError } from './outbound.errors';

/** An address of this machine's that is not loopback: what a server bound to every interface listens on. */
const OWN_ADDRESS = (() => {
  const external = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).filter((a) => !a.internal));
  const own = external.find((a) => a.family === 'IPv4') ?? external[0];
  if (!own) throw new Error('This machine has no address but loopback');
  return own;
})();
const OWN_HOST = OWN_ADDRESS.family === 'IPv4' ? OWN_ADDRESS.address : `[${OWN_ADDRESS.address}]`;

/** Resolves names from a fixed table, as a DNS server an attacker controls would. */
class TableResolver extends HostResolver {
  constructor(private readonly table: Record<string, LookupAddress[]>) {
    super();
  }
  async resolve(hostName: string): Promise<LookupAddress[]> {
    const addresses = this.table[hostName];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostName}`), { code: 'ENOTFOUND' });
    return addresses;
  }
}

const resolver = new TableResolver({
  'rebound.test': [{ address: '127.0.0.1', family: 4 }],
  'empty.test': [],
  'metadata.test': [{ address: '169.254.169.254', family: 4 }],
  'self.test': [{ address: OWN_ADDRESS.address, family: OWN_ADDRESS.family === 'IPv4' ? 4 : 6 }],
  'mixed.test': [
    { address: '127.0.0.2', family: 4 },
    { address: '127.0.0.1', family: 4 },
  ],
});

describe('OutboundClient (against a local server)', () => {
  let server: Server;
  let port: number;
  let connections: number;
  let seen: { method: string; path: string; headers: IncomingMessage['headers']; body: string }[];
  let handler: (req: IncomingMessage, res: ServerResponse) => void;
  const clients: OutboundClient[] = [];

  const clientAllowing = (entries: string) => {
    const client = new OutboundClient(new EgressPolicy(parseAllowedHosts(entries).hosts), resolver);
    clients.push(client);
    return client;
  };
  const local = clientAllowing('127.0.0.1');
  const strict = clientAllowing('');
  const call = (client: OutboundClient, url: string, extra: Partial<OutboundRequest> = {}) =>
    client.send({ url, method: 'POST', headers: {}, timeoutMs: 5000, ...extra });

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        seen.push({ method: req.method!, path: req.url!, headers: req.headers, body });
        handler(req, res);
      });
    });
    server.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  beforeEach(() => {
    connections = 0;
    seen = [];
    handler = (_req, res) => res.writeHead(200).end('ok');
  });
  afterAll(async () => {
    clients.forEach((client) => client.onApplicationShutdown());
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends the method, headers and body and returns the status, headers and body', async () => {
    handler = (_req, res) => res.writeHead(201, { 'x-answer': 'yes' }).end('created');
    const response = await call(local, `http://127.0.0.1:${port}/hook?q=1`, { method: 'PUT', headers: { 'x-extra': 'yes' }, body: 'é' });
    expect(response).toMatchObject({ status: 201, headers: expect.objectContaining({ 'x-answer': 'yes' }) });
    expect(response.body.toString()).toBe('created');
    expect(seen).toEqual([{ method: 'PUT', path: '/hook?q=1', headers: expect.objectContaining({ 'x-extra': 'yes', 'content-length': '2' }), body: 'é' }]);
  });

  describe('refuses internal destinations without connecting', () => {
    it.each([
      ['127.0.0.1', '127.0.0.1 is a loopback address'],
      ['2130706433', '127.0.0.1 is a loopback address'],
      ['0x7f.1', '127.0.0.1 is a loopback address'],
      ['0177.0.0.1', '127.0.0.1 is a loopback address'],
      ['127.1', '127.0.0.1 is a loopback address'],
      ['[::ffff:127.0.0.1]', '::ffff:7f00:1 is a loopback address'],
      ['[::ffff:7f00:1]', '::ffff:7f00:1 is a loopback address'],
      ['[::127.0.0.1]', '::7f00:1 is a loopback address'],
      ['[64:ff9b::127.0.0.1]', '64:ff9b::7f00:1 is a loopback address'],
      ['[64:ff9b:1::7f00:1]', '64:ff9b:1::7f00:1 is a loopback address'],
      ['[2002:7f00:1::]', '2002:7f00:1:: is a loopback address'],
      ['[2001::7f00:1]', '2001::7f00:1 is a Teredo address'],
      ['rebound.test', 'rebound.test resolves to no allowed address'],
      ['metadata.test', 'metadata.test resolves to no allowed address'],
    ])('http://%s', async (host, reason) => {
      const attempt = call(strict, `http://${host}:${port}/hook`);
      await expect(attempt).rejects.toThrow(DestinationNotAllowedError);
      await expect(attempt).rejects.toThrow(`not sent: the destination is not allowed (${reason})`);
      expect(connections).toBe(0);
    });
  });

  it("never connects to this machine's own address, by IP literal or by a name that resolves to it", async () => {
    let ownConnections = 0;
    const onOwnAddress = createServer((_req, res) => res.end('own')).on('connection', () => (ownConnections += 1));
    await new Promise<void>((resolve) => onOwnAddress.listen(0, OWN_ADDRESS.address, resolve));
    const ownPort = (onOwnAddress.address() as AddressInfo).port;
    try {
      const literal = call(local, `http://${OWN_HOST}:${ownPort}/`);
      await expect(literal).rejects.toThrow(DestinationNotAllowedError);
      await expect(literal).rejects.toThrow(`(${OWN_ADDRESS.address} is this machine's own address)`);
      await expect(call(local, `http://self.test:${ownPort}/`)).rejects.toThrow('(self.test resolves to no allowed address)');
      expect(ownConnections).toBe(0);
    } finally {
      await new Promise((resolve) => onOwnAddress.close(resolve));
    }
  });

  it('reaches a refused address through a host name listed by name, whatever it resolves to', async () => {
    const response = await call(clientAllowing('rebound.test'), `http://rebound.test:${port}/named`);
    expect(response.status).toBe(200);
    expect(seen.map((s) => [s.path, s.headers.host])).toEqual([['/named', `rebound.test:${port}`]]);
  });

  it('connects only to the allowed addresses of a name that has several', async () => {
    // The first address the name resolves to is refused: a server there must see nothing.
    let refusedConnections = 0;
    const refused = createServer((_req, res) => res.end('wrong server')).on('connection', () => (refusedConnections += 1));
    await new Promise<void>((resolve) => refused.listen(port, '127.0.0.2', resolve));
    try {
      const response = await call(local, `http://mixed.test:${port}/mixed`);
      expect(response.body.toString()).toBe('ok');
      expect(seen.map((s) => s.path)).toEqual(['/mixed']);
      expect(refusedConnections).toBe(0);
    } finally {
      refused.closeAllConnections();
      await new Promise((resolve) => refused.close(resolve));
    }
  });

  it('does not follow a redirect: the 3xx is the answer', async () => {
    handler = (req, res) => (req.url === '/from' ? res.writeHead(302, { location: '/to' }).end('moved') : res.writeHead(200).end('target'));
    const response = await call(local, `http://127.0.0.1:${port}/from`);
    expect(response.status).toBe(302);
    expect(response.body.toString()).toBe('moved');
    expect(seen.map((s) => s.path)).toEqual(['/from']);
  });

  it('reads an answer of exactly 1 MiB and refuses one byte more', async () => {
    handler = (req, res) => res.writeHead(200).end(Buffer.alloc(MAX_RESPONSE_BYTES + (req.url === '/over' ? 1 : 0), 'a'));
    expect((await call(local, `http://127.0.0.1:${port}/exact`)).body.length).toBe(MAX_RESPONSE_BYTES);
    await expect(call(local, `http://127.0.0.1:${port}/over`)).rejects.toThrow(new ResponseTooLargeError(MAX_RESPONSE_BYTES));
  });

  it('stops reading an endless answer at 1 MiB', async () => {
    let sent = 0;
    let closed!: () => void;
    const serverSawClose = new Promise<void>((resolve) => (closed = resolve));
    handler = (_req, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(64 * 1024, 'z');
      const pump = () => {
        while (sent < 50 * MAX_RESPONSE_BYTES && res.write(chunk)) sent += chunk.length;
        if (sent < 50 * MAX_RESPONSE_BYTES) res.once('drain', pump);
      };
      res.on('close', closed);
      pump();
    };
    await expect(call(local, `http://127.0.0.1:${port}/endless`)).rejects.toThrow('failed: the response is larger than 1 MiB');
    await serverSawClose;
    expect(sent).toBeLessThan(50 * MAX_RESPONSE_BYTES);
  });

  it('refuses an answer that announces more than 1 MiB before reading it', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-length': String(10 * MAX_RESPONSE_BYTES) });
      res.write('a');
    };
    await expect(call(local, `http://127.0.0.1:${port}/announced`)).rejects.toThrow(ResponseTooLargeError);
  });

  it('times out, and stops when the signal aborts before or during the call', async () => {
    handler = () => undefined; // never answers
    await expect(call(local, `http://127.0.0.1:${port}/slow`, { timeoutMs: 100 })).rejects.toThrow('timed out after 100 ms');
    const controller = new AbortController();
    const pending = call(local, `http://127.0.0.1:${port}/slow`, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toThrow(OutboundAbortedError);
    const before = connections;
    await expect(call(local, `http://127.0.0.1:${port}/slow`, { signal: AbortSignal.abort() })).rejects.toThrow(OutboundAbortedError);
    expect(connections).toBe(before);
  });

  it('refuses what cannot be sent, before connecting', async () => {
    await expect(call(local, `http://127.0.0.1:${port}/x`, { headers: { 'x-bad': 'a\r\nInjected: yes' } })).rejects.toThrow(InvalidOutboundRequestError);
    await expect(call(local, 'ftp://127.0.0.1/x')).rejects.toThrow('not sent: ftp: URLs are not called');
    await expect(call(local, 'not a url')).rejects.toThrow('not sent: the URL is not valid');
    expect(connections).toBe(0);
  });

  it('reports a connection failure by its code', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const failure = call(local, `http://127.0.0.1:${closedPort}/none`);
    await expect(failure).rejects.toThrow(OutboundError);
    await expect(failure).rejects.toThrow('failed: ECONNREFUSED');
    await expect(call(local, `http://unknown.test:${port}/`)).rejects.toThrow('failed: ENOTFOUND');
    await expect(call(clientAllowing('empty.test'), `http://empty.test:${port}/`)).rejects.toThrow('failed: ENOTFOUND');
  });
});
