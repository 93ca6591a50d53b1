import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { PunctualConfig } from '@app/config';
import { GroupCommit } from '@app/runtime';
import { InvalidRequestError } from '../errors/action.errors';
import { QuotaExceededError } from '../errors/quota.errors';
import { ActiveLedger, HeldPlaces } from './active-ledger';
import { RATE_LIMITERS, RateLimitersPort, TENANT_LIMITS, TenantLimitsPort } from './tenant-quotas.ports';

/**
 * A tenant's limits and active actions are read at most this often per process, so a create costs
 * no count; between reads, the process counts its own changes. A quota may so be passed by what
 * other API processes created within one read, and learns of actions that a worker finished at the
 * next read.
 */
const TENANT_READ_MS = 1000;
/** Tenants whose last read a process keeps; the least recently used beyond this are read again when next asked. */
const CACHED_TENANTS = 10_000;
/** Bursts: a tenant may create this many seconds' worth of its rate at once. */
const BURST_SECONDS = 10;
/** What a tenant over its active-actions limit is told to wait: actions end on their own schedule. */
const ACTIVE_RETRY_SECONDS = 60;

/**
 * The quotas a tenant's creates must fit (contract: active actions and create rate), checked
 * before anything is validated or stored. Active actions are the tenant's `ActiveLedger`: the
 * counts behind stats, read at most once a second per tenant, plus what this process changed
 * since, plus the places it holds for writes on their way. Creates, and the control requests
 * that count with them, are counted in Redis, shared by every API process, in windows of
 * BURST_SECONDS holding ten seconds' worth of the rate. When Redis cannot be reached, the rate is
 * not enforced (creates go on), and that is logged once per outage.
 */
@Injectable()
export class TenantQuotas implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(TenantQuotas.name);
  /** One limiter per rate in use: the points of a window are the limiter's. */
  private readonly limiters = new Map<number, RateLimiterAbstract>();
  private readonly ledgers = new LRUCache<string, ActiveLedger>({ max: CACHED_TENANTS });
  /** Counts of creates against a tenant's rate, by rate and tenant: those that arrive while one is on its way to Redis go together next. */
  private readonly rateCounts = new LRUCache<string, GroupCommit<number, QuotaExceededError | null>>({ max: CACHED_TENANTS });
  private unreachable = false;

  constructor(
    private readonly config: PunctualConfig,
    @Inject(TENANT_LIMITS) private readonly tenants: TenantLimitsPort,
    @Inject(RATE_LIMITERS) private readonly rates: RateLimitersPort,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.rates.open().catch((error: Error) => this.reportUnreachable(error));
  }

  onApplicationShutdown(): void {
    this.rates.close();
  }

  /**
   * Holds `count` places among the tenant's active actions and counts `count` creates against
   * its rate, or refuses: 400 for a batch larger than the burst (it could never pass), 429 over
   * either limit, holding nothing. The caller keeps the places once its creates are stored and
   * releases them whatever else happens.
   */
  async admit(tenantId: string, count: number): Promise<HeldPlaces> {
    const ledger = await this.ledgerOf(tenantId);
    const rate = this.rateOf(ledger);
    if (count > rate * BURST_SECONDS) {
      throw new InvalidRequestError(
        `items: a batch of tenant ${tenantId} may hold at most ${rate * BURST_SECONDS} actions (its burst: ${BURST_SECONDS} × its create rate of ${rate} per second); send these ${count} as batches of at most ${rate * BURST_SECONDS}`,
      );
    }
    const places = this.hold(tenantId, ledger, count);
    try {
      await this.consumeRate(tenantId, rate, count);
    } catch (error) {
      places.release();
      throw error;
    }
    return places;
  }

  /** Holds `count` places among the tenant's active actions (429 when over, holding nothing), for actions made active again. */
  async holdActive(tenantId: string, count: number): Promise<HeldPlaces> {
    return this.hold(tenantId, await this.ledgerOf(tenantId), count);
  }

  /** Counts one control request (pause, resume, skip, retry) against the tenant's create rate: 429 when none is left. */
  async countControl(tenantId: string): Promise<void> {
    await this.consumeRate(tenantId, this.rateOf(await this.ledgerOf(tenantId)), 1);
  }

  /** Gives `count` creates back to the tenant's rate: they turned out to repeat a create already counted. */
  async refundRate(tenantId: string, count: number): Promise<void> {
    await this.rewardRate(tenantId, this.rateOf(await this.ledgerOf(tenantId)), count);
  }

  /** `count` of the tenant's stored actions stopped being active: their places are free at once. */
  freed(tenantId: string, count: number): void {
    this.ledgers.get(tenantId)?.free(count);
  }

  private async ledgerOf(tenantId: string): Promise<ActiveLedger> {
    let ledger = this.ledgers.get(tenantId);
    if (!ledger) {
      ledger = new ActiveLedger(async () => {
        const tenant = await this.tenants.find(tenantId);
        return { limits: tenant?.limits ?? null, active: tenant?.activeActions ?? 0 };
      }, TENANT_READ_MS);
      this.ledgers.set(tenantId, ledger);
    }
    await ledger.fresh(performance.now());
    return ledger;
  }

  /** Synchronous from the check to the hold: no other request can pass on the same count. */
  private hold(tenantId: string, ledger: ActiveLedger, count: number): HeldPlaces {
    const maxActive = ledger.limits?.maxActiveActions ?? this.config.tenantDefaults.maxActiveActions;
    if (ledger.active + count > maxActive) {
      throw new QuotaExceededError(
        `Tenant ${tenantId} has ${ledger.active} active actions (PENDING or IN_PROGRESS) of at most ${maxActive}; ${count} more would pass that limit. Let some finish or delete them, or ask an operator to raise maxActiveActions`,
        ACTIVE_RETRY_SECONDS,
      );
    }
    ledger.hold(count);
    return new HeldPlaces(ledger, count);
  }

  private rateOf(ledger: ActiveLedger): number {
    return ledger.limits?.createRate ?? this.config.tenantDefaults.createRate;
  }

  /**
   * Counts `count` creates against the tenant's rate. Requests arriving while a count for the same
   * tenant is on its way to Redis are counted together next, in one command: a burst of single
   * creates costs a few round trips, not one each. When together they pass the limit, each is
   * admitted or refused on its own, in arrival order.
   */
  private async consumeRate(tenantId: string, rate: number, count: number): Promise<void> {
    const key = `${rate}\n${tenantId}`;
    let counts = this.rateCounts.get(key);
    if (!counts) {
      // Never fails: Redis being unreachable admits (consumeOnce), so nothing is worth retrying alone.
      counts = new GroupCommit(
        (group: number[]) => this.consumeGroup(tenantId, rate, group),
        Infinity,
        () => false,
      );
      this.rateCounts.set(key, counts);
    }
    const refusal = await counts.submit(count);
    if (refusal) throw refusal;
  }

  /** Each count's refusal (or null), counting the group at once when it fits and one by one when it does not. */
  private async consumeGroup(tenantId: string, rate: number, group: number[]): Promise<(QuotaExceededError | null)[]> {
    const refusal = await this.consumeOnce(
      tenantId,
      rate,
      group.reduce((sum, count) => sum + count, 0),
    );
    if (!refusal || group.length === 1) return group.map(() => refusal);
    const own: (QuotaExceededError | null)[] = [];
    for (const count of group) own.push(await this.consumeOnce(tenantId, rate, count));
    return own;
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
      await this.rewardRate(tenantId, rate, count);
      return new QuotaExceededError(
        `Tenant ${tenantId} may create ${rate} actions per second (bursts of ${rate * BURST_SECONDS}), each pause, resume, skip or retry counting as one; ${count} more would pass that limit. Retry after the time given`,
        Math.max(1, Math.ceil(error.msBeforeNext / 1000)),
      );
    }
  }

  private async rewardRate(tenantId: string, rate: number, count: number): Promise<void> {
    await this.limiterFor(rate)
      .reward(tenantId, count)
      .catch(() => undefined);
  }

  private limiterFor(rate: number): RateLimiterAbstract {
    let limiter = this.limiters.get(rate);
    if (!limiter) {
      limiter = this.rates.limiter({
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
