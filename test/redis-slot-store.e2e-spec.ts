import Redis from 'ioredis';
import { loadConfig } from '@app/config';
import { ActionQueues } from '@app/scheduling';
import { waitUntil } from '@app/testing';
import { RedisSlotStore } from '../libs/server/src/worker/execution/redis-slot-store';
import { describeSlotStoreCases } from './support/slot-store-cases';
import { testRedis } from './support/test-redis';

/** Redis's clock in ms, which the slot scripts read. */
async function redisMs(redis: Redis): Promise<number> {
  const [seconds, micros] = await redis.time();
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}

// The slot store's case table through the Lua scripts on Redis, on Redis's clock: changing what a
// script does for any case fails it, and the in-memory store (test/in-memory-slot-store.spec.ts)
// is held to the same cases.
describeSlotStoreCases('The slot store on Redis', async () => {
  const redis = testRedis() as Redis;
  // The store reaches Redis through the queues' connection: here, the test run's own.
  const queues = { redis: async () => redis } as unknown as ActionQueues;
  const store = new RedisSlotStore(queues, loadConfig());
  return {
    store,
    shortMs: 200,
    eventually: async (what, ms, probe) => void (await waitUntil(what, probe, ms + 10_000)),
    async tick() {
      const from = await redisMs(redis);
      await waitUntil("Redis's clock past a ms", async () => (await redisMs(redis)) > from, 5000, 1);
    },
    parked: (group) => redis.zrange(store.keysOf(group)[1], '0', '-1'),
    close: async () => void (await redis.quit()),
  };
});
