import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { PunctualConfig, RedisClient, redisConnection } from '@app/config';

/** Pings Redis on its own connection, failing within a second rather than queueing the command. */
@Injectable()
export class RedisHealthIndicator implements OnModuleDestroy {
  private readonly redis: RedisClient;

  constructor(
    private readonly indicators: HealthIndicatorService,
    config: PunctualConfig,
  ) {
    this.redis = redisConnection(config.redis, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 1000,
    });
    this.redis.on('error', () => undefined); // reported through the check, not as unhandled events
  }

  async pingCheck(key: string) {
    const indicator = this.indicators.check(key);
    try {
      if (this.redis.status === 'wait' || this.redis.status === 'end') await this.redis.connect();
      await this.redis.ping();
      return indicator.up();
    } catch (error) {
      return indicator.down({ message: (error as Error).message });
    }
  }

  async onModuleDestroy(): Promise<void> {
    this.redis.disconnect();
  }
}
