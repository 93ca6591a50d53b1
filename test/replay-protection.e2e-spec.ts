import Redis from 'ioredis';
import { signRequest } from '@punctual/contract';
import { TcpProxy, TEST_KEY, waitUntil } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { httpRequestExample, storedCounts } from './support/fixtures';

interface CapturedRequest {
  headers: Record<string, string>;
  body: string;
}

/**
 * Replay protection does not depend on Redis: a nonce, once accepted, is refused for the rest of
 * its window whatever happened to Redis in between. Redis is cut with a TCP proxy in front of the
 * API, or emptied with FLUSHDB on the tests' own Redis database; the shared server is never touched.
 */
describe('Replay protection across Redis outages and resets', () => {
  const redisProxy = new TcpProxy('127.0.0.1', 6379);
  const postgresProxy = new TcpProxy('127.0.0.1', 5432);
  const redis = new Redis(process.env.REDIS_URL!);
  let api: ApiTestApp | undefined;

  beforeAll(async () => {
    await Promise.all([redisProxy.start(), postgresProxy.start()]);
  });
  afterEach(async () => {
    redisProxy.restore();
    postgresProxy.restore();
    await api?.close();
    api = undefined;
  });
  afterAll(async () => {
    await Promise.all([redisProxy.stop(), postgresProxy.stop()]);
    redis.disconnect();
  });

  /** A signed create, captured so that it can be sent again byte for byte, as an attacker would. */
  function capturedCreate(): CapturedRequest {
    const body = JSON.stringify(httpRequestExample());
    return { body, headers: signRequest({ ...TEST_KEY, method: 'POST', pathWithQuery: '/actions', body }) };
  }
  const send = (running: ApiTestApp, request: CapturedRequest) =>
    fetch(`${running.client.baseUrl}/actions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...request.headers },
      body: request.body,
    });
  const redisStatus = async (running: ApiTestApp) => (await (await fetch(`${running.client.baseUrl}/health`)).json()).details.redis.status;

  async function expectReplayRefused(running: ApiTestApp, request: CapturedRequest): Promise<void> {
    const before = await storedCounts(running.db);
    const replay = await send(running, request);
    expect(replay.status).toBe(401);
    expect(((await replay.json()) as { message: string }).message).toMatch(/Nonce already used for key 'test-key'/);
    expect(await storedCounts(running.db)).toEqual(before);
  }

  it('refuses a replay of a request accepted while Redis was unreachable, once Redis is back', async () => {
    const running = (api = await startCleanApiApp(undefined, { REDIS_URL: redisProxy.proxied(process.env.REDIS_URL!) }));
    expect(await redisStatus(running)).toBe('up');
    const connected = redisProxy.connections;
    redisProxy.cut();
    const request = capturedCreate();
    expect((await send(running, request)).status).toBe(201);
    expect(await redisStatus(running)).toBe('down');

    redisProxy.restore();
    await waitUntil('every Redis connection of the API to be back', () => redisProxy.connections >= connected);
    expect(await redisStatus(running)).toBe('up');
    await expectReplayRefused(running, request);
  });

  it('refuses a replay of a request accepted before Redis restarted empty', async () => {
    const running = (api = await startCleanApiApp());
    const request = capturedCreate();
    expect((await send(running, request)).status).toBe(201);

    await redis.flushdb(); // the tests' own Redis database only
    expect(await redis.dbsize()).toBe(0);
    await expectReplayRefused(running, request);
  });

  it('answers 503 while Postgres is unreachable without using up the nonce, and accepts the same request once it is back', async () => {
    const running = (api = await startCleanApiApp(undefined, { DATABASE_URL: postgresProxy.proxied(process.env.DATABASE_URL!) }));
    const request = capturedCreate();
    postgresProxy.cut();
    const refused = await send(running, request);
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { message: string }).message).toBe('The database is unreachable; nothing was changed. Try again shortly.');

    postgresProxy.restore();
    const accepted = await waitUntil('the API to reach Postgres again', async () => {
      const response = await send(running, request);
      return response.status === 503 ? null : response;
    });
    expect(accepted.status).toBe(201);
    await expectReplayRefused(running, request);
  });
});
