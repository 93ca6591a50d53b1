import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Injectable, Logger } from '@nestjs/common';
import { Job } from 'bullmq';
import { LRUCache } from 'lru-cache';
import { PunctualConfig } from '@app/config';
import { TenantsRepository } from '@app/database';
import { ActionJobData, ActionQueues } from '@app/scheduling';

/** A tenant's limit is read at most this often per worker process. */
const LIMIT_READ_MS = 2000;
/** Tenants whose limit a worker keeps; the least recently used beyond this are read again when next asked. */
const CACHED_TENANTS = 10_000;
/** Renewals per lease: a slot outlives one missed renewal. */
const RENEWALS_PER_LEASE = 3;

/**
 * The slot scripts, each after the clock prelude they share, read when the worker builds its
 * TenantSlots from `lua/` beside this file (the builds copy them there).
 */
function slotScripts(): { take: string; renew: string; settle: string } {
  const read = (name: string) => readFileSync(join(__dirname, 'lua', `${name}.lua`), 'utf8');
  const withClock = (name: string) => `${read('tenant-slots-now')}\n${read(name)}`;
  return { take: withClock('take-tenant-slot'), renew: withClock('renew-tenant-slot'), settle: withClock('settle-tenant-slots') };
}

/** An attempt's place under its tenant's limit: renewed while held, freed once. */
export interface TenantSlot {
  release(): Promise<void>;
}

/**
 * TENANT_MAX_CONCURRENCY (or a tenant's own `maxConcurrency`): the attempts a tenant runs at once
 * across every worker. Each running attempt holds a slot, a member of the tenant's sorted set in
 * Redis scored by when its lease ends (renewed like a claim, so a dead worker's slot frees itself).
 * A job that finds no slot free is parked: delayed by a claim lease and listed by the tenant, and
 * the next slot freed wakes the longest-parked job (BullMQ's `promote`), so a capped tenant's
 * backlog costs one refusal per job rather than a polling loop, and other tenants' jobs pass it by.
 * A tenant without a limit costs nothing here. Slots are not state Postgres needs: if Redis loses
 * them, the tenant may briefly run up to twice its limit; parked jobs wake on their own.
 */
@Injectable()
export class TenantSlots {
  private readonly logger = new Logger(TenantSlots.name);
  /** One read per tenant at a time: the jobs of a burst all ask at once, and wait for the same read. */
  private readonly limits: LRUCache<string, { limit: number | null }>;
  private readonly scripts = slotScripts();

  constructor(
    tenants: TenantsRepository,
    private readonly queues: ActionQueues,
    private readonly config: PunctualConfig,
  ) {
    this.limits = new LRUCache({
      max: CACHED_TENANTS,
      ttl: LIMIT_READ_MS,
      fetchMethod: async (tenant) => ({ limit: (await tenants.limitsOf(tenant))?.maxConcurrency ?? config.tenantDefaults.maxConcurrency }),
    });
  }

  /**
   * The slot the job's attempt runs under; `null` when its tenant has no limit; 'full' when every
   * slot is taken (the caller then parks the job).
   */
  async take(job: Job<ActionJobData>): Promise<TenantSlot | null | 'full'> {
    const tenant = job.data.tenantId;
    if (tenant === undefined) return null;
    const limit = await this.limitOf(tenant);
    if (limit === null) return null;
    const redis = await this.queues.redis();
    const leaseMs = this.config.scheduling.claimLeaseMs;
    const keys = this.keysOf(tenant);
    const taken = await redis.eval(this.scripts.take, 2, ...keys, job.id!, limit, leaseMs, parkedMember(job));
    if (taken !== 1) return 'full';
    const renewals = setInterval(
      () => void redis.eval(this.scripts.renew, 1, keys[0], job.id!, leaseMs).catch(() => undefined),
      Math.max(1, Math.floor(leaseMs / RENEWALS_PER_LEASE)),
    );
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        clearInterval(renewals);
        await this.settle(tenant, limit, { free: job.id! });
      },
    };
  }

  /**
   * Delays the job by a claim lease (its own wake-up should no slot's release wake it first) and
   * lists it as waiting for its tenant. Listed only once delayed, and a slot freed meanwhile is
   * handed on right after, so no release can miss it.
   */
  async park(job: Job<ActionJobData>, token: string | undefined): Promise<void> {
    const tenant = job.data.tenantId!;
    await job.moveToDelayed(Date.now() + this.config.scheduling.claimLeaseMs, token);
    await this.settle(tenant, (await this.limitOf(tenant)) ?? Number.MAX_SAFE_INTEGER, { park: parkedMember(job) });
  }

  /** Frees and/or parks, then wakes parked jobs while slots are free; one already gone (run, deleted) passes its turn on. */
  private async settle(tenant: string, limit: number, change: { free?: string; park?: string }): Promise<void> {
    try {
      const redis = await this.queues.redis();
      const parkedTtl = 2 * this.config.scheduling.claimLeaseMs;
      let args: (string | number)[] = [change.free ?? '', limit, change.park ?? '', parkedTtl];
      for (;;) {
        const member = (await redis.eval(this.scripts.settle, 2, ...this.keysOf(tenant), ...args)) as string | null;
        if (member === null || (await this.wake(member))) return;
        args = ['', limit, '', parkedTtl];
      }
    } catch (error) {
      // Parked jobs then wake when their delay ends.
      this.logger.warn(`Could not hand tenant ${tenant}'s free slot on: ${(error as Error).message}`);
    }
  }

  /** Moves a parked job from delayed to waiting; false when it is no longer delayed. */
  private async wake(member: string): Promise<boolean> {
    const { type, jobId } = JSON.parse(member) as { type: string; jobId: string };
    const job = await this.queues.queueFor(type).getJob(jobId);
    if (!job) return false;
    try {
      await job.promote();
      return true;
    } catch {
      return false;
    }
  }

  private async limitOf(tenant: string): Promise<number | null> {
    return (await this.limits.forceFetch(tenant)).limit;
  }

  /** The tenant's running slots and parked jobs, hash-tagged by tenant so one script reaches both on a Redis Cluster. */
  private keysOf(tenant: string): [string, string] {
    const base = `${this.config.redis.queuePrefix}:tenant-slots:{${tenant}}`;
    return [`${base}:running`, `${base}:parked`];
  }
}

function parkedMember(job: Job<ActionJobData>): string {
  return JSON.stringify({ type: job.name, jobId: job.id });
}
