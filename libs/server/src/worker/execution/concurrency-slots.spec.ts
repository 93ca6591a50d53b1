import { Logger } from '@nestjs/common';
import { InMemoryPorts, specConfig } from '@app/testing';
import { ConcurrencySlot, ConcurrencySlots } from './concurrency-slots';
import type { SlotGroup } from './slot-store.port';

const LEASE_MS = 900;
const GROUP: SlotGroup = { kind: 'tenant', id: 'team-a', limit: 2 };
const ONE_AT_A_TIME: SlotGroup = { ...GROUP, limit: 1 };

/** The slots on the in-memory slot store and queues, on one manual clock. */
function slotsOnMemory() {
  const ports = new InMemoryPorts();
  const slots = new ConcurrencySlots(ports.slots, ports.consumedQueues, specConfig({ CLAIM_LEASE_MS: String(LEASE_MS) }));
  const job = (id: string) => ports.consumedQueues.job('SPEC_TYPE', id, {});
  /** The slot job `id` takes, which the case needs it to get. */
  const hold = async (id: string, group = ONE_AT_A_TIME): Promise<ConcurrencySlot> => {
    const slot = await slots.take(job(id), group);
    if (slot === 'full') throw new Error(`job ${id} found no free slot`);
    return slot;
  };
  /** Parks each job in turn, a ms apart, as it would be on finding its group full. */
  const parkEach = async (ids: string[]) => {
    for (const id of ids) {
      await slots.park(job(id), ONE_AT_A_TIME, `token-${id}`);
      ports.clock.advance(1);
    }
  };
  return { ports, slots, job, hold, parkEach };
}

describe('ConcurrencySlots', () => {
  let warn: jest.SpyInstance;
  beforeEach(() => {
    jest.useFakeTimers();
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    jest.useRealTimers();
    warn.mockRestore();
  });

  it("gives a group's jobs slots up to its limit, then answers 'full' until one is released", async () => {
    const { slots, job, hold } = slotsOnMemory();
    const held = [await hold('1', GROUP), await hold('2', GROUP)];
    expect(await slots.take(job('3'), GROUP)).toBe('full');
    held.push(await hold('4', { ...GROUP, id: 'team-b' }));
    await held.shift()!.release();
    held.push(await hold('3', GROUP));
    await Promise.all(held.map((slot) => slot.release()));
  });

  it('delays a parked job by a claim lease, and a release wakes the longest-parked job, one per freed slot', async () => {
    const { ports, job, hold, parkEach } = slotsOnMemory();
    const held = await hold('1');
    await parkEach(['2', '3']);
    expect(ports.consumedQueues.delays).toEqual([
      { queue: 'SPEC_TYPE', jobId: '2', timestamp: Date.now() + LEASE_MS, token: 'token-2' },
      { queue: 'SPEC_TYPE', jobId: '3', timestamp: Date.now() + LEASE_MS, token: 'token-3' },
    ]);
    expect(ports.consumedQueues.woken).toEqual([]);
    await held.release();
    expect(ports.consumedQueues.woken).toEqual([{ queue: 'SPEC_TYPE', jobId: '2' }]);
    expect(ports.consumedQueues.isDelayed(job('3'))).toBe(true);
  });

  it('keeps the slot a release frees for the job it wakes, and a newcomer behind it', async () => {
    const { ports, slots, job, hold, parkEach } = slotsOnMemory();
    const held = await hold('1');
    await parkEach(['2']);
    await held.release();
    expect(ports.consumedQueues.woken).toEqual([{ queue: 'SPEC_TYPE', jobId: '2' }]);
    expect(await slots.take(job('3'), ONE_AT_A_TIME)).toBe('full');
    await (await hold('2')).release();
  });

  it('passes the turn of a parked job already gone (run, deleted) to the next', async () => {
    const { ports, job, hold, parkEach } = slotsOnMemory();
    const held = await hold('1');
    await parkEach(['2', '3', '4']);
    ports.consumedQueues.remove(job('2'));
    await held.release();
    expect(ports.consumedQueues.woken).toEqual([{ queue: 'SPEC_TYPE', jobId: '3' }]);
    expect(ports.slots.parked(ONE_AT_A_TIME)).toEqual([JSON.stringify({ queue: 'SPEC_TYPE', jobId: '4' })]);
  });

  it('wakes a job that parks as the last slot is freed, so that no release is missed', async () => {
    const { ports, slots, job } = slotsOnMemory();
    // It found the group full, and the slot was freed before it was listed.
    await slots.park(job('2'), ONE_AT_A_TIME, 'token-2');
    expect(ports.consumedQueues.woken).toEqual([{ queue: 'SPEC_TYPE', jobId: '2' }]);
  });

  it('renews a held slot while its attempt runs, however long', async () => {
    const { ports, slots, job, hold } = slotsOnMemory();
    const held = await hold('1');
    for (let step = 0; step < 9; step++) {
      ports.clock.advance(LEASE_MS / 3);
      await jest.advanceTimersByTimeAsync(LEASE_MS / 3);
    }
    expect(await slots.take(job('2'), ONE_AT_A_TIME)).toBe('full');
    await held.release();
  });

  it('frees a slot whose renewals stopped (its worker died) once its lease lapsed, and not before', async () => {
    const { ports, slots, job, hold } = slotsOnMemory();
    const held = await hold('1');
    // The renewals run on jest's timers, which stand still: the holder is gone as far as the store can tell.
    ports.clock.advance(LEASE_MS - 1);
    expect(await slots.take(job('2'), ONE_AT_A_TIME)).toBe('full');
    ports.clock.advance(1);
    await (await hold('2')).release();
    await held.release();
  });

  it('logs a store failure while handing a slot on rather than throwing it, and releases once', async () => {
    const { ports, slots, job, hold } = slotsOnMemory();
    const held = await hold('1');
    ports.slots.unavailable = true;
    await expect(held.release()).resolves.toBeUndefined();
    await expect(slots.park(job('2'), ONE_AT_A_TIME, 'token-2')).resolves.toBeUndefined();
    expect(warn.mock.calls.map(([message]) => message)).toEqual([
      "Could not hand tenant team-a's free slot on: Connection is closed.",
      "Could not hand tenant team-a's free slot on: Connection is closed.",
    ]);
    // The parked job was delayed all the same: it wakes on its own.
    expect(ports.consumedQueues.isDelayed(job('2'))).toBe(true);
    ports.slots.unavailable = false;
    await held.release();
    expect(warn).toHaveBeenCalledTimes(2);
  });
});
