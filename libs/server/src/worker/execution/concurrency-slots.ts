import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Injectable, Logger } from '@nestjs/common';
import { Job } from 'bullmq';
import { PunctualConfig } from '@app/config';
import { ActionQueues } from '@app/scheduling';

/** Renewals per lease: a slot outlives one missed renewal. */
const RENEWALS_PER_LEASE = 3;

/**
 * The slot scripts, each after the clock prelude they share, read when the worker builds its
 * ConcurrencySlots from `lua/` beside this file (the builds copy them there).
 */
function slotScripts(): { take: string; renew: string; settle: string } {
  const read = (name: string) => readFileSync(join(__dirname, 'lua', `${name}.lua`), 'utf8');
  const withClock = (name: string) => `${read('slots-now')}\n${read(name)}`;
  return { take: withClock('take-slot'), renew: withClock('renew-slot'), settle: withClock('settle-slots') };
}

/** Who shares a limit: a tenant's attempts, or a webhook receiver's deliveries. */
export interface SlotGroup {
  readonly kind: 'tenant' | 'receiver';
  readonly id: string;
  /** Attempts of the group that may run at once, across every worker. */
  readonly limit: number;
}

/** An attempt's place under its group's limit: renewed while held, freed once. */
export interface ConcurrencySlot {
  release(): Promise<void>;
}

/**
 * Limits on the attempts a group runs at once across every worker: a tenant's actions
 * (TENANT_MAX_CONCURRENCY, or its own `maxConcurrency`) and a receiver's webhook deliveries
 * (WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION). Each running attempt holds a slot, a member of the group's
 * sorted set in Redis scored by when its lease ends (renewed like a claim, so a dead worker's slot
 * frees itself). A job that finds no slot free is parked: delayed by a claim lease and listed by its
 * group, and the next slot freed wakes the longest-parked job (BullMQ's `promote`), so a capped
 * group's backlog costs one refusal per job rather than a polling loop, and other groups' jobs pass
 * it by. Slots are not state Postgres needs: if Redis loses them, a group may briefly run up to
 * twice its limit; parked jobs wake on their own.
 */
@Injectable()
export class ConcurrencySlots {
  private readonly logger = new Logger(ConcurrencySlots.name);
  private readonly scripts = slotScripts();

  constructor(
    private readonly queues: ActionQueues,
    private readonly config: PunctualConfig,
  ) {}

  /** The slot the job's attempt runs under, or 'full' when every slot of its group is taken (the caller then parks the job). */
  async take(job: Job, group: SlotGroup): Promise<ConcurrencySlot | 'full'> {
    const redis = await this.queues.redis();
    const leaseMs = this.config.scheduling.claimLeaseMs;
    const keys = this.keysOf(group);
    const taken = await redis.eval(this.scripts.take, 2, ...keys, job.id!, group.limit, leaseMs, parkedMember(job));
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
        await this.settle(group, { free: job.id! });
      },
    };
  }

  /**
   * Delays the job by a claim lease (its own wake-up should no slot's release wake it first) and
   * lists it as waiting for its group. Listed only once delayed, and a slot freed meanwhile is
   * handed on right after, so no release can miss it.
   */
  async park(job: Job, group: SlotGroup, token: string | undefined): Promise<void> {
    await job.moveToDelayed(Date.now() + this.config.scheduling.claimLeaseMs, token);
    await this.settle(group, { park: parkedMember(job) });
  }

  /** Frees and/or parks, then wakes parked jobs while slots are free; one already gone (run, deleted) passes its turn on. */
  private async settle(group: SlotGroup, change: { free?: string; park?: string }): Promise<void> {
    try {
      const redis = await this.queues.redis();
      const parkedTtl = 2 * this.config.scheduling.claimLeaseMs;
      let args: (string | number)[] = [change.free ?? '', group.limit, change.park ?? '', parkedTtl];
      for (;;) {
        const member = (await redis.eval(this.scripts.settle, 2, ...this.keysOf(group), ...args)) as string | null;
        if (member === null || (await this.wake(member))) return;
        args = ['', group.limit, '', parkedTtl];
      }
    } catch (error) {
      // Parked jobs then wake when their delay ends.
      this.logger.warn(`Could not hand ${group.kind} ${group.id}'s free slot on: ${(error as Error).message}`);
    }
  }

  /** Moves a parked job from delayed to waiting; false when it is no longer delayed. */
  private async wake(member: string): Promise<boolean> {
    const { queue, jobId } = JSON.parse(member) as { queue: string; jobId: string };
    const job = await this.queues.queueFor(queue).getJob(jobId);
    if (!job) return false;
    try {
      await job.promote();
      return true;
    } catch {
      return false;
    }
  }

  /** The group's running slots and parked jobs, hash-tagged by group so one script reaches both on a Redis Cluster. */
  private keysOf(group: SlotGroup): [string, string] {
    const base = `${this.config.redis.queuePrefix}:${group.kind}-slots:{${group.id}}`;
    return [`${base}:running`, `${base}:parked`];
  }
}

function parkedMember(job: Job): string {
  return JSON.stringify({ queue: job.queueName, jobId: job.id });
}
