import { Injectable } from '@nestjs/common';
import { RateLimiterAbstract, RateLimiterRedis } from 'rate-limiter-flexible';
import { PunctualConfig, RedisClient, redisConnection } from '@app/config';
import { RateLimitersPort } from './tenant-quotas.ports';

/** The tenants' create counts on the queue Redis: a connection that never queues a command while Redis is away, so a count fails at once. */
@Injectable()
export class RedisRateLimiters implements RateLimitersPort {
  private readonly redis: RedisClient;

  constructor(config: PunctualConfig) {
    this.redis = redisConnection(config.redis, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    this.redis.on('error', () => undefined);
  }

  open(): Promise<void> {
    return this.redis.connect();
  }

  close(): void {
    this.redis.disconnect();
  }

  limiter(options: { keyPrefix: string; points: number; duration: number }): RateLimiterAbstract {
    return new RateLimiterRedis({ storeClient: this.redis, rejectIfRedisNotReady: true, ...options });
  }
}
