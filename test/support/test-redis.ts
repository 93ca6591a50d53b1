import Redis, { Cluster } from 'ioredis';
import { RedisClient, loadConfig, redisConnection } from '@app/config';

/** The test run's Redis as the apps reach it: one server, or the cluster of the e2e-cluster tier. */
export function testRedis(): RedisClient {
  return redisConnection(loadConfig().redis);
}

/** Empties the test run's Redis, as a Redis that lost its data: on a cluster, every master. */
export async function flushRedis(redis: RedisClient): Promise<void> {
  await Promise.all(masters(redis).map((server) => server.flushdb()));
}

/** How many keys the test run's Redis holds: on a cluster, over every master. */
export async function keyCount(redis: RedisClient): Promise<number> {
  const sizes = await Promise.all(masters(redis).map((server) => server.dbsize()));
  return sizes.reduce((sum, size) => sum + size, 0);
}

function masters(redis: RedisClient): Redis[] {
  return redis instanceof Cluster ? redis.nodes('master') : [redis];
}
