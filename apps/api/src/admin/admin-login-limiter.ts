import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { PunctualConfig, RedisClient, redisConnection } from '@app/config';

/** What counting one failed login did. */
export interface CountedFailure {
  /** Failures of this address in the current window, this one included. */
  readonly failures: number;
  /** This failure was the one that reached the limit: the address is refused from now on. */
  readonly blockStarted: boolean;
}

/**
 * Counts failed admin logins per client address in Redis, so every API process sees the same
 * counts: `maxFailures` within `blockMs` (a fixed window from the first failure) block the address
 * for `blockMs`. Keys live under `QUEUE_PREFIX`, with a hash tag so a Redis Cluster keeps them in
 * one slot.
 *
 * When Redis cannot be reached, logins are neither counted nor refused (the password is still
 * checked): locking every operator out because Redis is down would be worse than the brute force
 * it guards against. That is logged once per outage.
 */
@Injectable()
export class AdminLoginLimiter implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('AdminLogin');
  private readonly redis: RedisClient;
  private readonly limiter: RateLimiterRedis;
  readonly maxFailures: number;
  readonly blockSeconds: number;
  private unreachable = false;
  private closed = false;

  constructor(config: PunctualConfig) {
    this.maxFailures = config.admin.login.maxFailures;
    this.blockSeconds = Math.ceil(config.admin.login.blockMs / 1000);
    this.redis = redisConnection(config.redis, {
      lazyConnect: true,
      // A command while Redis is away fails at once rather than holding an operator's request.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 2000,
      commandTimeout: 1000,
    });
    this.redis.on('error', () => undefined); // reported once per outage below, not as unhandled events
    this.limiter = new RateLimiterRedis({
      storeClient: this.redis,
      rejectIfRedisNotReady: true,
      keyPrefix: `${config.redis.queuePrefix}:{admin-login}`,
      // The consume that goes past `points` is refused and blocks the key: the `maxFailures`-th failure.
      points: this.maxFailures - 1,
      duration: this.blockSeconds,
      blockDuration: this.blockSeconds,
    });
  }

  async onModuleInit(): Promise<void> {
    try {
      await this.redis.connect();
    } catch (error) {
      this.reportUnreachable(error);
    }
  }

  onApplicationShutdown(): void {
    this.closed = true;
    this.redis.disconnect();
  }

  /** Milliseconds until the address may log in again, or null when it is not blocked (or Redis cannot say). */
  async blockedFor(address: string): Promise<number | null> {
    try {
      const state = await this.limiter.get(address);
      this.reportReachable();
      return state && state.consumedPoints >= this.maxFailures ? Math.max(state.msBeforeNext, 1) : null;
    } catch (error) {
      this.reportUnreachable(error);
      return null;
    }
  }

  /** Counts one failed login of the address; null when Redis could not count it. */
  async countFailure(address: string): Promise<CountedFailure | null> {
    try {
      const state = await this.limiter.consume(address);
      this.reportReachable();
      return { failures: state.consumedPoints, blockStarted: false };
    } catch (error) {
      if (error instanceof RateLimiterRes) {
        this.reportReachable();
        // Only the consume that crossed the limit blocks; one racing it from another process sees a higher count.
        return { failures: error.consumedPoints, blockStarted: error.consumedPoints === this.maxFailures };
      }
      this.reportUnreachable(error);
      return null;
    }
  }

  private reportUnreachable(error: unknown): void {
    if (this.unreachable || this.closed) return;
    this.unreachable = true;
    this.logger.warn(
      `Cannot reach Redis to count failed admin logins (${(error as Error).message}): they are not limited until it answers again; passwords are still checked`,
    );
  }

  private reportReachable(): void {
    if (!this.unreachable) return;
    this.unreachable = false;
    this.logger.log('Redis answers again: failed admin logins are counted and limited again');
  }
}
