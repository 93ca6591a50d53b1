import { Client, credentials } from '@grpc/grpc-js';
import { GRPC_STATUS, RPC_PATTERNS, SignedRpc, signedMessage } from '@punctual/client';
import { TEST_KEY } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { notificationExample, storedCounts } from './support/fixtures';
import { freePort } from './support/free-port';
import { queuedJobs } from './support/queue-state';
import { RawGrpc } from './support/raw-grpc';
import { refusal } from './support/refusal';

/** gRPC's number for gzip, the compression a client may send a message in. */
const GZIP = 2;

/**
 * What a hostile client sends the gRPC service, and the NestJS transport beside it: each gets a
 * clear status, costs little, and stores and queues nothing.
 */
describe('Hostile messages to punctual.v1.Punctual (contract §17)', () => {
  let api: ApiTestApp;
  let address: string;
  let raw: RawGrpc;
  const redisRpc = process.env.REDIS_URL!;

  beforeAll(async () => {
    address = `127.0.0.1:${await freePort()}`;
    // The NestJS transport on the spec's Redis too, to replay messages across the two.
    api = await startCleanApiApp(undefined, { GRPC_URL: address, RPC_TRANSPORT_URL: redisRpc });
    raw = new RawGrpc(address);
  });
  afterAll(async () => {
    raw?.close();
    await api?.close();
  });

  async function unchanged<T>(work: () => Promise<T>): Promise<T> {
    const before = { counts: await storedCounts(api.db), jobs: await queuedJobs(api.app) };
    const result = await work();
    expect({ counts: await storedCounts(api.db), jobs: await queuedJobs(api.app) }).toEqual(before);
    return result;
  }

  it('a signed create with thousands of headers besides its own: refused unread, and the API keeps answering at once', async () => {
    const signed = signedMessage(TEST_KEY, RPC_PATTERNS.create, JSON.stringify(notificationExample()));
    const padding = Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`h${i}`, 'x']));
    const outcomes = await unchanged(async () => {
      const probes: number[] = [];
      const calls = Promise.all(Array.from({ length: 10 }, () => raw.call('Create', { ...signed, headers: { ...signed.headers, ...padding } })));
      let done = false;
      void calls.finally(() => (done = true));
      while (!done) {
        const started = performance.now();
        expect((await api.client.get('/health/live')).status).toBe(200);
        probes.push(performance.now() - started);
      }
      // Each such message, decoded, took a tenth of a second of the event loop; counted on the wire, none.
      expect(Math.max(...probes)).toBeLessThan(500);
      return calls;
    });
    for (const outcome of outcomes) {
      expect({ code: outcome.code, body: JSON.parse(outcome.details) }).toEqual({
        code: GRPC_STATUS.UNAUTHENTICATED,
        body: {
          statusCode: 401,
          error: 'Unauthorized',
          message: 'headers holds 60004 entries; an RPC message carries its signature headers and Idempotency-Key, at most 32',
        },
      });
    }
  });

  it('the same over the NestJS transport: refused by the same rule', async () => {
    const rpc = new SignedRpc({ transport: redisRpc, ...TEST_KEY, timeoutMs: 10_000 });
    try {
      const signed = signedMessage(TEST_KEY, RPC_PATTERNS.create, JSON.stringify(notificationExample()));
      const padding = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`h${i}`, 'x']));
      const refused = await unchanged(() => refusal(rpc.sendMessage(RPC_PATTERNS.create, { ...signed, headers: { ...signed.headers, ...padding } })));
      expect(refused).toMatchObject({ statusCode: 401, message: expect.stringContaining('headers holds 104 entries') });
    } finally {
      await rpc.close();
    }
  });

  it('a gzip message that would inflate past the size limit: RESOURCE_EXHAUSTED before it is read', async () => {
    const gzip = new Client(address, credentials.createInsecure(), { 'grpc.default_compression_algorithm': GZIP });
    try {
      const body = JSON.stringify(notificationExample(3_600_000, { metadata: { pad: 'x'.repeat(8 * 1024 * 1024) } }));
      const message = signedMessage(TEST_KEY, RPC_PATTERNS.createBatch, body);
      const outcome = await unchanged(() => new RawGrpc(address, gzip).call('CreateBatch', message));
      expect(outcome.code).toBe(GRPC_STATUS.RESOURCE_EXHAUSTED);
      expect(outcome.details).toMatch(/decompresses to a size larger than/);
    } finally {
      gzip.close();
    }
  });

  it('a message signed for one transport is valid on the other once: replayed across gRPC and the NestJS transport, refused', async () => {
    const rpc = new SignedRpc({ transport: redisRpc, ...TEST_KEY, timeoutMs: 10_000 });
    try {
      const overGrpc = signedMessage(TEST_KEY, RPC_PATTERNS.create, JSON.stringify(notificationExample()));
      expect((await raw.call('Create', overGrpc)).code).toBe(GRPC_STATUS.OK);
      const overRedis = signedMessage(TEST_KEY, RPC_PATTERNS.create, JSON.stringify(notificationExample()));
      expect(await rpc.sendMessage(RPC_PATTERNS.create, overRedis)).toMatchObject({ id: expect.any(String) });
      await unchanged(async () => {
        expect(await refusal(rpc.sendMessage(RPC_PATTERNS.create, overGrpc))).toMatchObject({
          statusCode: 401,
          message: expect.stringContaining('replayed'),
        });
        const replayed = await raw.call('Create', overRedis);
        expect({ code: replayed.code, message: JSON.parse(replayed.details).message }).toEqual({
          code: GRPC_STATUS.UNAUTHENTICATED,
          message: expect.stringContaining('replayed'),
        });
      });
    } finally {
      await rpc.close();
    }
  });

  it.each([
    ['a varint where headers go', '0801'],
    ['a body whose length runs past the end', '12ffffffff0f'],
  ])('bytes that are no punctual.v1.Request (%s): INVALID_ARGUMENT', async (_name, hex) => {
    const outcome = await unchanged(() => raw.call('Create', Buffer.from(hex, 'hex')));
    expect({ code: outcome.code, body: JSON.parse(outcome.details) }).toEqual({
      code: GRPC_STATUS.INVALID_ARGUMENT,
      body: { statusCode: 400, error: 'Bad Request', message: 'The message is not a punctual.v1.Request' },
    });
  });

  it('a message without metadata or any header: UNAUTHENTICATED, naming what is missing', async () => {
    const outcome = await unchanged(() => raw.call('Create', Buffer.alloc(0)));
    expect({ code: outcome.code, body: JSON.parse(outcome.details) }).toEqual({
      code: GRPC_STATUS.UNAUTHENTICATED,
      body: expect.objectContaining({ statusCode: 401, message: 'Missing header X-Punctual-Key' }),
    });
  });
});
