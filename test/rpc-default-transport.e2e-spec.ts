import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { PunctualClient, PunctualError, PunctualTimeoutError } from '@punctual/client';
import { TEST_KEY } from '@app/testing';
import { API_READY, AppProcess } from './support/app-process';
import { notificationExample } from './support/fixtures';
import { freePort } from './support/free-port';
import { NATS_URL } from './support/nats';

const QUEUE_REDIS = process.env.REDIS_URL!;
const NOT_SERVING = /Not serving message patterns: RPC_TRANSPORT_URL is unset and 2 tenants hold API keys/g;
const ONE_TRUST_DOMAIN = /RPC_TRANSPORT_URL names a Redis, and 2 tenants hold API keys: a Redis transport is one trust domain/g;

/** The process a test started, SIGKILLed after it. */
let api: AppProcess | undefined;

async function startApi(env: Record<string, string | undefined>): Promise<AppProcess> {
  api = new AppProcess('api', { PORT: await freePort(), ...env });
  return api.ready(API_READY, 90_000);
}

async function sql<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const db = new Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  try {
    return (await db.query(text, values)).rows as T[];
  } finally {
    await db.end();
  }
}

/** A create over RPC on the queue Redis, tagged with a run of its own: its reply, or the error it failed with. */
async function createOverQueueRedis(run: string): Promise<unknown> {
  const rpc = PunctualClient.overRpc({ transport: QUEUE_REDIS, ...TEST_KEY, timeoutMs: 5_000 });
  try {
    return await rpc.create({ ...notificationExample(3_600_000), metadata: { run } } as Parameters<typeof rpc.create>[0]).catch((error: unknown) => error);
  } finally {
    await rpc.close();
  }
}

async function storedActionsOf(run: string): Promise<number> {
  const [row] = await sql<{ n: number }>(`SELECT count(*)::int AS n FROM actions WHERE metadata->>'run' = $1`, [run]);
  return row.n;
}

describe('RPC on the queue Redis only while one tenant holds keys (contract §16)', () => {
  beforeAll(async () => {
    // Keys made at run time by earlier specs would count as tenants of their own.
    await sql('TRUNCATE api_keys');
  });
  afterEach(() => api?.kill('SIGKILL'));

  it('with RPC_TRANSPORT_URL unset and two tenants, the API serves no message pattern on its Redis and says once why and what to set', async () => {
    // The test settings give the tenants `default` and `team-b` keys.
    const started = await startApi({ RPC_TRANSPORT_URL: undefined });
    expect(started.logs().match(NOT_SERVING)).toHaveLength(1);
    expect(started.logs()).toMatch(/Set RPC_TRANSPORT_URL to a NATS server with a user per tenant/);
    expect(started.logs()).not.toMatch(/Serving message patterns/);

    const run = randomUUID();
    expect(await createOverQueueRedis(run)).toBeInstanceOf(PunctualTimeoutError);
    expect(await storedActionsOf(run)).toBe(0);
  }, 120_000);

  it('with RPC_TRANSPORT_URL unset and one tenant, the API serves the message patterns on its Redis, as before', async () => {
    const started = await startApi({ RPC_TRANSPORT_URL: undefined, API_KEYS: `${TEST_KEY.keyId}:${TEST_KEY.secret}` });
    expect(started.logs()).toMatch(/Serving message patterns over redis/);
    expect(started.logs()).not.toMatch(/Not serving message patterns|one trust domain/);

    const run = randomUUID();
    expect(await createOverQueueRedis(run)).toMatchObject({ metadata: { run }, status: 'PENDING' });
    expect(await storedActionsOf(run)).toBe(1);
  }, 120_000);

  it('with a Redis named in RPC_TRANSPORT_URL and two tenants, the API serves it and warns once that it is one trust domain', async () => {
    const started = await startApi({ RPC_TRANSPORT_URL: QUEUE_REDIS });
    expect(started.logs().match(ONE_TRUST_DOMAIN)).toHaveLength(1);

    const run = randomUUID();
    expect(await createOverQueueRedis(run)).toMatchObject({ metadata: { run }, status: 'PENDING' });
  }, 120_000);

  it("on NATS with RPC_TENANT_INBOX_PREFIX unset and one tenant, answers a plain client under NATS's default inbox, a refusal included", async () => {
    const started = await startApi({ RPC_TRANSPORT_URL: NATS_URL, API_KEYS: `${TEST_KEY.keyId}:${TEST_KEY.secret}` });
    expect(started.logs()).toMatch(/answering each tenant only under _INBOX_\{tenant\}\. while keys of two or more tenants are valid/);
    const run = randomUUID();
    const rpc = PunctualClient.overRpc({ transport: NATS_URL, ...TEST_KEY, timeoutMs: 10_000 });
    const forged = PunctualClient.overRpc({ transport: NATS_URL, keyId: TEST_KEY.keyId, secret: 'not-the-secret-0123456789', timeoutMs: 10_000 });
    try {
      expect(await rpc.create({ ...notificationExample(3_600_000), metadata: { run } } as Parameters<typeof rpc.create>[0])).toMatchObject({
        metadata: { run },
      });
      const refusal = await forged.stats().catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(PunctualError);
      expect(refusal).toMatchObject({ statusCode: 401 });
    } finally {
      await Promise.all([rpc.close(), forged.close()]);
    }
  }, 120_000);
});
