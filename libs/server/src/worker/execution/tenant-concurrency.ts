import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { PunctualConfig } from '@app/config';
import { TenantsRepository } from '@app/database';
import type { SlotGroup } from './slot-store.port';

/** A tenant's limit is read at most this often per worker process. */
const LIMIT_READ_MS = 2000;
/** Tenants whose limit a worker keeps; the least recently used beyond this are read again when next asked. */
const CACHED_TENANTS = 10_000;

/** The slot group of a tenant's attempts: its own `maxConcurrency`, else TENANT_MAX_CONCURRENCY. */
@Injectable()
export class TenantConcurrency {
  /** One read per tenant at a time: the jobs of a burst all ask at once, and wait for the same read. */
  private readonly limits: LRUCache<string, { limit: number | null }>;

  constructor(tenants: TenantsRepository, config: PunctualConfig) {
    this.limits = new LRUCache({
      max: CACHED_TENANTS,
      ttl: LIMIT_READ_MS,
      fetchMethod: async (tenant) => ({ limit: (await tenants.limitsOf(tenant))?.maxConcurrency ?? config.tenantDefaults.maxConcurrency }),
    });
  }

  /** Null for a tenant without a limit, which then costs nothing in Redis. */
  async slotGroupOf(tenant: string | undefined): Promise<SlotGroup | null> {
    if (tenant === undefined) return null;
    const { limit } = await this.limits.forceFetch(tenant);
    return limit === null ? null : { kind: 'tenant', id: tenant, limit };
  }
}
