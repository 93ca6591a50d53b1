import Redis, { Cluster, RedisOptions } from 'ioredis';
import { redisOptionsFromUrl } from '@punctual/contract';
import { PunctualConfig } from './punctual-config';

/** A connection to Punctual's Redis: one server, or a Redis Cluster. */
export type RedisClient = Redis | Cluster;

/** Connects to Punctual's Redis (`REDIS_URL`, or the cluster of `REDIS_CLUSTER_NODES`) with the given behaviour. */
export function redisConnection(redis: PunctualConfig['redis'], options: RedisOptions = {}): RedisClient {
  if (!redis.clusterNodes) return new Redis({ ...redisOptionsFromUrl(redis.url), ...options });
  return clusterConnection(redis.clusterNodes, options);
}

/**
 * A Redis Cluster client that starts from the given nodes and learns the rest. Connection
 * behaviour applies to each node's connection, except what ioredis sets for the cluster as a
 * whole (whether to queue commands while no node answers, whether to connect at once). The first
 * node's scheme, user and password apply to every node.
 */
export function clusterConnection(nodeUrls: readonly string[], options: RedisOptions): Cluster {
  const { username, password, tls } = redisOptionsFromUrl(nodeUrls[0]);
  const nodes = nodeUrls.map((url) => {
    const { host, port } = redisOptionsFromUrl(url);
    return { host, port };
  });
  const { enableOfflineQueue, lazyConnect, ...nodeOptions } = options;
  // A cluster has one database and finds its nodes itself: a server's address and database do not apply.
  delete nodeOptions.host;
  delete nodeOptions.port;
  delete nodeOptions.db;
  return new Cluster(nodes, { redisOptions: { username, password, tls, ...nodeOptions }, enableOfflineQueue, lazyConnect });
}

/**
 * BullMQ's key prefix for one queue: Punctual's prefix and the queue's name as a hash tag, so that
 * each queue keeps its keys in one hash slot of a Redis Cluster (BullMQ's scripts need that) and
 * the queues of different action types spread over the cluster's nodes.
 */
export function queuePrefixOf(queuePrefix: string, queueName: string): string {
  return `${queuePrefix}:{${queueName}}`;
}
