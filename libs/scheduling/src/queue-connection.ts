import { RedisConnection, RedisOptions, createIORedisClient } from 'bullmq';
import { redisOptionsFromUrl } from '@punctual/contract';
import { PunctualConfig, clusterConnection } from '@app/config';

/**
 * The connection options BullMQ is given for Punctual's Redis, with the behaviour asked for. BullMQ
 * makes its connections from options, and closes them with its queues and workers. On a Redis
 * Cluster it is told to make cluster clients, through its client factory: the one place where
 * BullMQ builds a client, for every queue and worker of the process (all on the same cluster).
 */
export function queueConnection(redis: PunctualConfig['redis'], options: RedisOptions): RedisOptions {
  const clusterNodes = redis.clusterNodes;
  if (clusterNodes) RedisConnection.clientFactory = (opts) => createIORedisClient(clusterConnection(clusterNodes, opts));
  return { ...redisOptionsFromUrl(redis.url), ...options };
}
