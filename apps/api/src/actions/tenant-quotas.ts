import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { PunctualConfig, RedisClient, redisConnection } from '@app/config';
import { TenantLimits, TenantsRepository } from '@app/database';
import { QuotaExceededError } from '../errors/quota.errors';

/**
 * A tenant's limits and active actions are read at most this often per process, so a create costs
 * no count; between reads, the process adds its own creates. A quota may so be passed by what other
 * API processes created within one read.
 */
const TENANT_READ_MS = 1000;
/** Tenants whose last read a process keeps; the least recently used beyond this are read again when next asked. */
const CACHED_TENANTS = 10_000;
/** Bursts: a tenant may create this many seconds' worth of its rate at once. */
const BURST_SECONDS = 10;
/** What a tenant over its active-actions limit is told to wait: actions end on their own schedule. */
const ACTIVE_RETRY_SECONDS = 60;

/** A tenant's limits and active actions as last read, plus the creates this process admitted since. */
interface TenantUse {
  limits: TenantLimits | null;
  active: number;
}

/** Creates of one tenant waiting for their count, while one is on its way to Redis. */
interface RateBatch {
  waiting: { count: number; resolve: () => void; reject: (refusal: QuotaExceededError) => void }[];
  running: boolean;
}

/**
 * The quotas a tenant's creates must fit (contract: active actions and create rate), checked
 * before anything is stored. Active actions come from the counts behind stats, read at most once a
 * second per tenant; creates are counted in Redis, shared by every API process, in windows of
 * BURST_SECONDS holding ten seconds' worth of the rate. When Redis cannot be reached, the rate is
 * not enforced (creates go on), and that is logged once per outage.
 */
@Injectable()
export class TenantQuotas implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(TenantQuotas.name);
  private readonly redis: RedisClient;
  /** One limiter per rate in use: the points of a window are the limiter's. */
  private readonly limiters = new Map<number, RateLimiterRedis>();
  /** One read per tenant at a time: the creates of a burst all ask at once, and share the same read. */
  private readonly uses: LRUCache<string, TenantUse>;
  /** Creates waiting to be counted against a tenant's rate, by rate and tenant. */
  private readonly rateBatches = new Map<string, RateBatch>();
  private unreachable = false;

  constructor(
    private readonly config: PunctualConfig,
    private readonly tenants: TenantsRepository,
  ) {
    this.redis = redisConnection(config.redis, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    this.redis.on('error', () => undefined);
    this.uses = new LRUCache({
      max: CACHED_TENANTS,
      ttl: TENANT_READ_MS,
      fetchMethod: async (id) => {
        const tenant = await this.tenants.find(id);
        return { limits: tenant?.limits ?? null, active: tenant?.activeActions ?? 0 };
      },
    });
  }

  async onModuleInit(): Promise<void> {
    await this.redis.connect().catch((error: Error) => this.reportUnreachable(error));
  }

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }

  /** Refuses (429, nothing stored) `count` creates that would take the tenant over its rate or its active actions. */
  async admit(tenantId: string, count: number): Promise<void> {
    const use = await this.uses.forceFetch(tenantId);
    const maxActive = use.limits?.maxActiveActions ?? this.config.tenantDefaults.maxActiveActions;
    const active = use.active;
    if (active + count > maxActive) {
      throw new QuotaExceededError(
        `Tenant ${tenantId} has ${active} active actions (PENDING or IN_PROGRESS) of at most ${maxActive}; ${count} more would pass that limit. Let some finish or delete them, or ask an operator to raise maxActiveActions`,
        ACTIVE_RETRY_SECONDS,
      );
    }
    await this.consumeRate(tenantId, use.limits?.createRate ?? this.config.tenantDefaults.createRate, count);
    use.active += count;
  }

  /**
   * Counts `count` creates against the tenant's rate. Requests arriving while a count for the same
   * tenant is on its way to Redis are counted together next, in one command: a burst of single
   * creates costs a few round trips, not one each. When together they pass the limit, each is
   * admitted or refused on its own, in arrival order.
   */
  private consumeRate(tenantId: string, rate: number, count: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const key = `${rate}\n${tenantId}`;
      const batch = this.rateBatches.get(key) ?? { waiting: [], running: false };
      this.rateBatches.set(key, batch);
      batch.waiting.push({ count, resolve, reject });
      if (!batch.running) void this.drainRate(key, batch, tenantId, rate);
    });
  }

  private async drainRate(key: string, batch: RateBatch, tenantId: string, rate: number): Promise<void> {
    batch.running = true;
    while (batch.waiting.length > 0) {
      const group = batch.waiting.splice(0);
      const refusal = await this.consumeOnce(
        tenantId,
        rate,
        group.reduce((sum, request) => sum + request.count, 0),
      );
      if (!refusal || group.length === 1) {
        for (const request of group)
          if (refusal) request.reject(refusal);
          else request.resolve();
        continue;
      }
      for (const request of group) {
        const own = await this.consumeOnce(tenantId, rate, request.count);
        if (own) request.reject(own);
        else request.resolve();
      }
    }
    this.rateBatches.delete(key);
  }

  /** Null when the creates fit the rate (or Redis cannot count them), else the refusal. */
  private async consumeOnce(tenantId: string, rate: number, count: number): Promise<QuotaExceededError | null> {
    try {
      await this.limiterFor(rate).consume(tenantId, count);
      this.unreachable = false;
      return null;
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) {
        this.reportUnreachable(error as Error);
        return null;
      }
      // A refused create stores nothing, so it takes nothing from the rate either.
      await this.limiterFor(rate)
        .reward(tenantId, count)
        .catch(() => undefined);
      return new QuotaExceededError(
        `Tenant ${tenantId} may create ${rate} actions per second (bursts of ${rate * BURST_SECONDS}); ${count} more would pass that limit. Retry after the time given`,
        Math.max(1, Math.ceil(error.msBeforeNext / 1000)),
      );
    }
  }

  private limiterFor(rate: number): RateLimiterRedis {
    let limiter = this.limiters.get(rate);
    if (!limiter) {
      limiter = new RateLimiterRedis({
        storeClient: this.redis,
        rejectIfRedisNotReady: true,
        keyPrefix: `${this.config.redis.queuePrefix}:{tenant-creates}:${rate}`,
        points: rate * BURST_SECONDS,
        duration: BURST_SECONDS,
      });
      this.limiters.set(rate, limiter);
    }
    return limiter;
  }

  private reportUnreachable(error: Error): void {
    if (this.unreachable) return;
    this.unreachable = true;
    this.logger.warn(`Cannot reach Redis to count tenants' creates (${error.message}): create rates are not limited until it answers again`);
  }
}
