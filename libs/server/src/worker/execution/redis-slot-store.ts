import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
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

/** The slot scripts as commands of the queues' connection, sent by their digest (EVALSHA) once Redis has them. */
type SlotCommands = Redis & {
  punctualTakeSlot(running: string, parked: string, holder: string, limit: number, leaseMs: number, member: string): Promise<number>;
  punctualRenewSlot(running: string, holder: string, leaseMs: number): Promise<unknown>;
  punctualSettleSlots(
    running: string,
    parked: string,
    free: string,
    limit: number,
    park: string,
    parkedTtlMs: number,
    leaseMs: number,
  ): Promise<string | null>;
};

/**
 * The groups' slots in Redis beside the queues: per group, a sorted set of the running holders
 * scored by when their lease ends, and one of the parked members scored by when they first parked,
 * each changed by one script on Redis's clock so that every worker measures leases alike.
 */
@Injectable()
export class RedisSlotStore implements SlotStorePort {
  private commands?: Promise<SlotCommands>;

  constructor(
    private readonly queues: ActionQueues,
    private readonly config: PunctualConfig,
  ) {}

  async take(group: SlotGroup, holder: string, parked: string, leaseMs: number): Promise<boolean> {
    return (await (await this.slotCommands()).punctualTakeSlot(...this.keysOf(group), holder, group.limit, leaseMs, parked)) === 1;
  }

  async renew(group: SlotGroup, holder: string, leaseMs: number): Promise<void> {
    await (await this.slotCommands()).punctualRenewSlot(this.keysOf(group)[0], holder, leaseMs);
  }

  async settle(group: SlotGroup, change: SlotChange, parkedTtlMs: number, leaseMs: number): Promise<string | null> {
    const commands = await this.slotCommands();
    return commands.punctualSettleSlots(...this.keysOf(group), change.free ?? '', group.limit, change.park ?? '', parkedTtlMs, leaseMs);
  }

  /** The group's running slots and parked members, hash-tagged by group so one script reaches both on a Redis Cluster. */
  keysOf(group: SlotGroup): [running: string, parked: string] {
    const base = `${this.config.redis.queuePrefix}:${group.kind}-slots:{${group.id}}`;
    return [`${base}:running`, `${base}:parked`];
  }

  /** Defines the scripts on the queues' connection once; a failed attempt is tried again by the next call. */
  private slotCommands(): Promise<SlotCommands> {
    if (!this.commands) {
      this.commands = this.queues.redis().then((redis) => {
        const scripts = slotScripts();
        redis.defineCommand('punctualTakeSlot', { numberOfKeys: 2, lua: scripts.take });
        redis.defineCommand('punctualRenewSlot', { numberOfKeys: 1, lua: scripts.renew });
        redis.defineCommand('punctualSettleSlots', { numberOfKeys: 2, lua: scripts.settle });
        return redis as SlotCommands;
      });
      this.commands.catch(() => (this.commands = undefined));
    }
    return this.commands;
  }
}
