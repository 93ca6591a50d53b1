import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { TenantRecord } from '@app/database';

/** What the quotas read of a tenant (`TenantsRepository` on Postgres): its own limits and its active actions as counted. */
export interface TenantLimitsPort {
  find(id: string): Promise<Pick<TenantRecord, 'limits' | 'activeActions'> | null>;
}

export const TENANT_LIMITS = Symbol('TENANT_LIMITS');

/**
 * Where tenants' creates are counted, shared by every API process (`RedisRateLimiters`). A limiter
 * whose store cannot be reached refuses to count with an error, never with a refusal.
 */
export interface RateLimitersPort {
  /** Reaches the store; a failure is the caller's to report. */
  open(): Promise<void>;
  close(): void;
  /** A limiter of `points` per window of `duration` seconds, its keys under `keyPrefix`. */
  limiter(options: { keyPrefix: string; points: number; duration: number }): RateLimiterAbstract;
}

export const RATE_LIMITERS = Symbol('RATE_LIMITERS');
