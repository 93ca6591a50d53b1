import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Injectable } from '@nestjs/common';
import { PunctualConfig } from '@app/config';
import { ActionQueues } from '@app/scheduling';
import type { SlotChange, SlotGroup, SlotStorePort } from './slot-store.port';

/**
 * The slot scripts, each after the clock prelude they share, read when the worker builds its
 * RedisSlotStore from `lua/` beside this file (the builds copy them there).
 */
function slotScripts(): { take: string; renew: string; settle: string } {
  const read = (name: string) => readFileSync(join(__dirname, 'lua', `${name}.lua`), 'utf8');
  const withClock = (name: string) => `${read('slots-now')}\n${read(name)}`;
  return { take: withClock('take-slot'), renew: withClock('renew-slot'), settle: withClock('settle-slots') };
}

/**
 * The groups' slots in Redis beside the queues: per group, a sorted set of the running holders
 * scored by when their lease ends, and one of the parked members scored by when they first parked,
 * each changed by one script on Redis's clock so that every worker measures leases alike.
 */
@Injectable()
export class RedisSlotStore implements SlotStorePort {
  private readonly scripts = slotScripts();

  constructor(
    private readonly queues: ActionQueues,
    private readonly config: PunctualConfig,
  ) {}

  async take(group: SlotGroup, holder: string, parked: string, leaseMs: number): Promise<boolean> {
    const redis = await this.queues.redis();
    return (await redis.eval(this.scripts.take, 2, ...this.keysOf(group), holder, group.limit, leaseMs, parked)) === 1;
  }

  async renew(group: SlotGroup, holder: string, leaseMs: number): Promise<void> {
    const redis = await this.queues.redis();
    await redis.eval(this.scripts.renew, 1, this.keysOf(group)[0], holder, leaseMs);
  }

  async settle(group: SlotGroup, change: SlotChange, parkedTtlMs: number): Promise<string | null> {
    const redis = await this.queues.redis();
    const args = [change.free ?? '', group.limit, change.park ?? '', parkedTtlMs];
    return (await redis.eval(this.scripts.settle, 2, ...this.keysOf(group), ...args)) as string | null;
  }

  /** The group's running slots and parked members, hash-tagged by group so one script reaches both on a Redis Cluster. */
  keysOf(group: SlotGroup): [running: string, parked: string] {
    const base = `${this.config.redis.queuePrefix}:${group.kind}-slots:{${group.id}}`;
    return [`${base}:running`, `${base}:parked`];
  }
}
