import { Logger } from '@nestjs/common';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { TenantLimits } from '@app/database';
import { specConfig } from '@app/testing';
import { domainErrorReply } from '../errors/error-replies';
import { QuotaExceededError } from '../errors/quota.errors';
import { TenantQuotas } from './tenant-quotas';
import { RateLimitersPort } from './tenant-quotas.ports';

/**
 * The limiters in memory: rate-limiter-flexible's own `RateLimiterMemory`, which counts windows as
 * `RateLimiterRedis` does. While `unreachable`, every count fails with an error, as the Redis
 * limiters do (`rejectIfRedisNotReady`) when Redis does not answer.
 */
class InMemoryRateLimiters implements RateLimitersPort {
  unreachable = false;

  async open(): Promise<void> {
    if (this.unreachable) throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
  }

  close(): void {}

  limiter(options: { keyPrefix: string; points: number; duration: number }): RateLimiterMemory {
    const limiter = new RateLimiterMemory(options);
    const reachable = <T>(count: () => Promise<T>): Promise<T> =>
      this.unreachable ? Promise.reject(new Error('Redis connection is not ready')) : count();
    const [consume, reward] = [limiter.consume.bind(limiter), limiter.reward.bind(limiter)];
    limiter.consume = (key, points) => reachable(() => consume(key, points));
    limiter.reward = (key, points) => reachable(() => reward(key, points));
    return limiter;
  }
}

const TENANT = 'acme';

/** Quotas over one tenant of `limits` with `active` actions counted, on the in-memory limiters. */
async function quotas(limits: Partial<TenantLimits>, active = 0) {
  const rates = new InMemoryRateLimiters();
  const tenants = { find: async () => ({ limits: { maxActiveActions: null, createRate: null, maxConcurrency: null, ...limits }, activeActions: active }) };
  const quotas = new TenantQuotas(specConfig(), tenants, rates);
  await quotas.onModuleInit();
  return { quotas, rates };
}

/** What `admit` was refused with; fails when it admitted. */
function refusal(admitted: Promise<unknown>): Promise<Error> {
  return admitted.then(
    () => Promise.reject(new Error('admitted')),
    (error: Error) => error,
  );
}

describe('TenantQuotas', () => {
  // The rate's windows and the tenant's reads run on the clock: it moves only when a spec says.
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] }));
  afterEach(() => jest.useRealTimers());

  it('refuses creates past the burst of its rate with 429 and when to retry, and admits a burst in whole', async () => {
    const { quotas: q } = await quotas({ createRate: 2, maxActiveActions: 20 });
    (await q.admit(TENANT, 15)).release();
    (await q.admit(TENANT, 5)).release();
    const refused = await refusal(q.admit(TENANT, 1));
    expect(refused).toBeInstanceOf(QuotaExceededError);
    expect(domainErrorReply(refused as QuotaExceededError).statusCode).toBe(429);
    expect(refused.message).toMatch(/may create 2 actions per second \(bursts of 20\)/);
    expect((refused as QuotaExceededError).retryAfterSeconds).toBe(10);
    // A control request counts against the same rate.
    await expect(q.countControl(TENANT)).rejects.toBeInstanceOf(QuotaExceededError);
    jest.advanceTimersByTime(9999);
    await expect(q.admit(TENANT, 1)).rejects.toMatchObject({ retryAfterSeconds: 1 });
    // A refused create holds no place among the active actions either.
    jest.advanceTimersByTime(1);
    (await q.admit(TENANT, 20)).release();
  });

  it('admits exactly the active actions left when a burst of creates arrives at once on one process', async () => {
    const { quotas: q } = await quotas({ maxActiveActions: 25, createRate: 100 }, 5);
    const asked = await Promise.allSettled(Array.from({ length: 60 }, () => q.admit(TENANT, 1)));
    const admitted = asked.filter((each) => each.status === 'fulfilled');
    const refused = asked.flatMap((each) => (each.status === 'rejected' ? [each.reason as QuotaExceededError] : []));
    expect(admitted).toHaveLength(20);
    expect(refused).toHaveLength(40);
    expect(refused.every((error) => error instanceof QuotaExceededError && error.retryAfterSeconds === 60)).toBe(true);
    expect(refused[0].message).toMatch(/has 25 active actions \(PENDING or IN_PROGRESS\) of at most 25/);
    // Places given back (the creates failed) are free at once; kept ones stay taken.
    const places = admitted.flatMap((each) => (each.status === 'fulfilled' ? [each.value] : []));
    for (const kept of places.slice(0, 10)) kept.keep();
    for (const given of places.slice(10)) given.release();
    (await q.admit(TENANT, 10)).keep();
    await expect(q.admit(TENANT, 1)).rejects.toThrow(/has 25 active actions/);
  });

  it('takes nothing for creates that turned out to repeat one already counted', async () => {
    const { quotas: q } = await quotas({ maxActiveActions: 10, createRate: 1 });
    for (let repeat = 0; repeat < 25; repeat += 1) {
      const places = await q.admit(TENANT, 1);
      await q.refundRate(TENANT, 1);
      places.release();
    }
    (await q.admit(TENANT, 10)).keep();
  });

  it('refuses with 400 a batch larger than the burst, naming the largest allowed, and takes nothing for it', async () => {
    const { quotas: q } = await quotas({ maxActiveActions: 20, createRate: 2 });
    const refused = await refusal(q.admit(TENANT, 21));
    expect(domainErrorReply(refused as QuotaExceededError).statusCode).toBe(400);
    expect(refused.message).toMatch(/may hold at most 20 actions .* send these 21 as batches of at most 20/);
    (await q.admit(TENANT, 20)).keep();
  });

  it('does not enforce the rate while Redis cannot be reached, says so once per outage, and counts again once it answers', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      const rates = new InMemoryRateLimiters();
      rates.unreachable = true;
      const q = new TenantQuotas(specConfig(), { find: async () => null }, rates);
      await q.onModuleInit();
      const burst = specConfig().tenantDefaults.createRate * 10;
      for (let each = 0; each < 3; each += 1) (await q.admit(TENANT, burst)).release();
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0][0]).toMatch(/Cannot reach Redis to count tenants' creates .*not limited until it answers again/);
      rates.unreachable = false;
      (await q.admit(TENANT, burst)).release();
      await expect(q.admit(TENANT, 1)).rejects.toBeInstanceOf(QuotaExceededError);
      rates.unreachable = true;
      (await q.admit(TENANT, 1)).release();
      expect(warn).toHaveBeenCalledTimes(2);
    } finally {
      warn.mockRestore();
    }
  });
});
