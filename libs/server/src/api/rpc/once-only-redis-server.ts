import { Logger } from '@nestjs/common';
import { RedisOptions, ServerRedis } from '@nestjs/microservices';
import type Redis from 'ioredis';
import { clusterConnection } from '@app/config';

/** Long past any request's own delivery to every subscriber; the claim only has to outlive that. */
const CLAIM_TTL_MS = 5 * 60 * 1000;

export interface OnceOnlySettings {
  /** Where the claims of requests are kept: `<prefix>:rpc-request:<id>`. */
  readonly keyPrefix: string;
  /** Subscribe and publish through a Redis Cluster of these nodes (Punctual's own), or null for one server. */
  readonly clusterNodes: readonly string[] | null;
}

/**
 * The Redis transport's server for any number of API processes. Redis pub/sub hands every
 * request to every subscribed process; each one claims the request's id (`SET NX`, on the Redis
 * the request came through) and only the process whose claim is taken handles and answers it,
 * so a request runs once and gets one reply. Messages without an id are events: Punctual has
 * no event patterns, so they pass through as before. When the claim cannot be made (Redis lost
 * between delivery and claim), the request is left unanswered: the caller times out and retries,
 * with its Idempotency-Key, rather than meet a second answer.
 */
export class OnceOnlyRedisServer extends ServerRedis {
  private readonly claimLogger = new Logger(OnceOnlyRedisServer.name);

  constructor(
    options: Required<RedisOptions>['options'],
    private readonly settings: OnceOnlySettings,
  ) {
    super(options);
  }

  override async createRedisClient(): Promise<Redis> {
    if (!this.settings.clusterNodes) return super.createRedisClient() as Promise<Redis>;
    // The cluster carries pub/sub messages to every node, and finds a node to subscribe on after a failover.
    return clusterConnection(this.settings.clusterNodes, { ...this.getClientOptions(), lazyConnect: true }) as unknown as Redis;
  }

  override async handleMessage(channel: string, buffer: string, pub: Redis, pattern: string): Promise<void> {
    const id = requestId(buffer);
    if (id !== undefined && !(await this.claim(pub, id))) return;
    await super.handleMessage(channel, buffer, pub, pattern);
  }

  private async claim(redis: Redis, id: string): Promise<boolean> {
    try {
      return (await redis.set(`${this.settings.keyPrefix}:rpc-request:${id}`, '1', 'PX', CLAIM_TTL_MS, 'NX')) === 'OK';
    } catch (error) {
      this.claimLogger.warn(`Left request ${id} unanswered: could not claim it in Redis (${(error as Error).message})`);
      return false;
    }
  }
}

/**
 * A request's id (the NestJS packet's `id`) as text, or undefined for an event or a message that is
 * not JSON. NestJS's server answers any packet with an id as a request, whatever the id's type, so
 * an id that is not a string (sent by hand) is claimed too, as its JSON.
 */
function requestId(buffer: string): string | undefined {
  try {
    const id: unknown = (JSON.parse(buffer) as { id?: unknown } | null)?.id;
    if (id === undefined) return undefined;
    return typeof id === 'string' ? id : JSON.stringify(id);
  } catch {
    return undefined;
  }
}
