import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { PunctualClient } from '@punctual/client';
import { RPC_PATTERNS, signRequest } from '@punctual/contract';
import { TEST_KEY, waitUntil } from '@app/testing';
import { API_READY, AppProcess } from './support/app-process';
import { notificationExample } from './support/fixtures';
import { freePort } from './support/free-port';
import { NATS_URL, ONE_TRUST_DOMAIN_NATS } from './support/nats';
import { storedActionsOf } from './support/stored-actions';

const API_PROCESSES = 3;
const CREATES = 1_000;

/** The processes a test started, SIGKILLed after it. */
const started: AppProcess[] = [];

async function startApis(transportUrl: string): Promise<AppProcess[]> {
  const apis = await Promise.all(
    Array.from({ length: API_PROCESSES }, async () => {
      const api = new AppProcess('api', { PORT: await freePort(), RPC_TRANSPORT_URL: transportUrl, ...ONE_TRUST_DOMAIN_NATS });
      started.push(api);
      return api;
    }),
  );
  return Promise.all(apis.map((api) => api.ready(API_READY, 90_000)));
}

/** Counts the claims of request `id` that reach Redis (`SET … NX` on its claim key), from any process. */
async function claimAttemptsOn(redisUrl: string, id: string): Promise<{ count: () => number; stop: () => void }> {
  const connection = new Redis(redisUrl);
  const monitor = await connection.monitor();
  let count = 0;
  monitor.on('monitor', (_time: string, args: string[]) => {
    if (args[0]?.toLowerCase() === 'set' && args[1]?.endsWith(`:rpc-request:${id}`)) count += 1;
  });
  return { count: () => count, stop: () => (monitor.disconnect(), connection.disconnect()) };
}

/**
 * A request published by hand whose id is a number, where NestJS's clients send a string: NestJS's
 * server still treats it as a request, so it must be claimed like any other, and answered once.
 */
async function expectHandMadeRequestAnsweredOnce(transportUrl: string, replies: Map<string | number, number>): Promise<void> {
  const run = randomUUID();
  const body = JSON.stringify({ ...notificationExample(3_600_000), metadata: { run } });
  const data = { headers: signRequest({ ...TEST_KEY, method: 'RPC', pathWithQuery: RPC_PATTERNS.create, body }), body };
  const id = 4_200_000_001;
  // Every process claims each request it receives: once all of them tried this one, only the winner can answer.
  const claimsTried = await claimAttemptsOn(transportUrl, String(id));
  const publisher = new Redis(transportUrl);
  try {
    await publisher.publish(RPC_PATTERNS.create, JSON.stringify({ pattern: RPC_PATTERNS.create, data, id }));
    await waitUntil('every API process to try to claim the hand-made request', () => claimsTried.count() === API_PROCESSES, 30_000);
    await waitUntil('the hand-made request to be answered', () => replies.has(id), 30_000);
  } finally {
    publisher.disconnect();
    claimsTried.stop();
  }
  expect(replies.get(id)).toBe(1);
  expect(await storedActionsOf(run)).toBe(1);
}

describe.each([
  ['Redis', process.env.REDIS_URL!],
  ['NATS', NATS_URL],
])('Three API processes serve the message patterns over %s (contract §14)', (transport, transportUrl) => {
  afterEach(() => {
    for (const api of started.splice(0)) api.kill('SIGKILL');
  });

  it('1,000 creates sent at once: 1,000 replies, no errors, 1,000 actions, each request answered by one process', async () => {
    await startApis(transportUrl);
    // Every reply on Redis, as any caller would see it: the same request answered twice would show here.
    const replies = new Map<string | number, number>();
    const listener = transport === 'Redis' ? new Redis(transportUrl) : null;
    await listener?.subscribe(`${RPC_PATTERNS.create}.reply`);
    listener?.on('message', (_channel, message: string) => {
      const { id, response, err } = JSON.parse(message) as { id: string | number; response?: unknown; err?: unknown };
      if (response !== undefined || err !== undefined) replies.set(id, (replies.get(id) ?? 0) + 1);
    });
    const rpc = PunctualClient.overRpc({ transport: transportUrl, ...TEST_KEY, timeoutMs: 60_000 });
    const run = randomUUID();
    try {
      const outcomes = await Promise.allSettled(
        Array.from({ length: CREATES }, () => rpc.create({ ...notificationExample(3_600_000), metadata: { run } } as Parameters<typeof rpc.create>[0])),
      );
      const failed = outcomes.filter((outcome) => outcome.status === 'rejected');
      expect(failed.map((outcome) => String(outcome.reason)).slice(0, 3)).toEqual([]);
      const ids = new Set(outcomes.map((outcome) => (outcome as PromiseFulfilledResult<{ id: string }>).value.id));
      expect(ids.size).toBe(CREATES);
      expect(await storedActionsOf(run)).toBe(CREATES);
      if (listener) {
        expect(replies.size).toBe(CREATES);
        expect([...replies.values()].filter((count) => count !== 1)).toEqual([]);
        await expectHandMadeRequestAnsweredOnce(transportUrl, replies);
      }
    } finally {
      await rpc.close();
      listener?.disconnect();
    }
  }, 240_000);
});
