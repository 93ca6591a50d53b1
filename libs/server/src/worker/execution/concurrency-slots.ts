import { Inject, Injectable, Logger } from '@nestjs/common';
import { PunctualConfig } from '@app/config';
import { CONSUMED_QUEUES, ConsumedQueuesPort } from './consumed-queues.port';
import type { ConsumedJob } from './queued-work';
import { SLOT_STORE, SlotChange, SlotGroup, SlotStorePort } from './slot-store.port';

/** Renewals per lease: a slot outlives one missed renewal. */
const RENEWALS_PER_LEASE = 3;

/** An attempt's place under its group's limit: renewed while held, freed once. */
export interface ConcurrencySlot {
  release(): Promise<void>;
}

/**
 * Limits on the attempts a group runs at once across every worker: a tenant's actions
 * (TENANT_MAX_CONCURRENCY, or its own `maxConcurrency`) and a receiver's webhook deliveries
 * (WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION). Each running attempt holds a slot in the slot store (the
 * group's sorted set in Redis, scored by when its lease ends), renewed like a claim, so a dead
 * worker's slot frees itself. A job that finds no slot free, or others of its group parked ahead
 * of it, is parked: delayed by a claim lease and listed by its group. The next slot freed is
 * reserved for the longest-parked job, which is woken (BullMQ's `promote`) to take it, so a capped
 * group's backlog costs one refusal per job rather than a polling loop or a race for each freed
 * slot, runs in the order it parked, and other groups' jobs pass it by. Slots are not state
 * Postgres needs: if Redis loses them, a group may briefly run up to twice its limit; parked jobs
 * wake on their own.
 */
@Injectable()
export class ConcurrencySlots {
  private readonly logger = new Logger(ConcurrencySlots.name);

  constructor(
    @Inject(SLOT_STORE) private readonly store: SlotStorePort,
    @Inject(CONSUMED_QUEUES) private readonly queues: ConsumedQueuesPort,
    private readonly config: PunctualConfig,
  ) {}

  /** The slot the job's attempt runs under, or 'full' when every slot of its group is taken (the caller then parks the job). */
  async take(job: ConsumedJob, group: SlotGroup): Promise<ConcurrencySlot | 'full'> {
    const leaseMs = this.config.scheduling.claimLeaseMs;
    if (!(await this.store.take(group, job.id!, parkedMember(job), leaseMs))) return 'full';
    const renewals = setInterval(
      () => void this.store.renew(group, job.id!, leaseMs).catch(() => undefined),
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
  async park(job: ConsumedJob, group: SlotGroup, token: string | undefined): Promise<void> {
    await job.moveToDelayed(Date.now() + this.config.scheduling.claimLeaseMs, token);
    await this.settle(group, { park: parkedMember(job) });
  }

  /** Frees and/or parks, then wakes the parked job a free slot was reserved for; one already gone (run, deleted) passes its slot to the next. */
  private async settle(group: SlotGroup, change: SlotChange): Promise<void> {
    try {
      const leaseMs = this.config.scheduling.claimLeaseMs;
      for (let next = change; ;) {
        const member = await this.store.settle(group, next, 2 * leaseMs, leaseMs);
        if (member === null || (await this.wake(member))) return;
        next = { free: member };
      }
    } catch (error) {
      // Parked jobs then wake when their delay ends.
      this.logger.warn(`Could not hand ${group.kind} ${group.id}'s free slot on: ${(error as Error).message}`);
    }
  }

  /** Moves a parked job from delayed to waiting; false when it is no longer delayed. */
  private wake(member: string): Promise<boolean> {
    const { queue, jobId } = JSON.parse(member) as { queue: string; jobId: string };
    return this.queues.wake(queue, jobId);
  }
}

function parkedMember(job: ConsumedJob): string {
  return JSON.stringify({ queue: job.queueName, jobId: job.id });
}
