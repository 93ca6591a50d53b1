import { randomUUID } from 'node:crypto';
import type { SlotChange, SlotGroup, SlotStorePort } from '../../libs/server/src/worker/execution/slot-store.port';

// What the slot store does, as cases every implementation of its port must pass: the Lua scripts on
// Redis in test/redis-slot-store.e2e-spec.ts, and the in-memory store the unit specs use in
// test/in-memory-slot-store.spec.ts, so that the one cannot drift from the other.

/** A slot store under test, and how to let time pass on its clock. */
export interface SlotStoreUnderTest {
  store: SlotStorePort;
  /** A lease (or a parked list's ttl) short enough to end within a case. */
  shortMs: number;
  /** Until `probe` answers true once `ms` passed: on Redis polled against a deadline, in memory after moving the clock on. */
  eventually(what: string, ms: number, probe: () => Promise<boolean>): Promise<void>;
  /** Lets the store's clock move on by at least a ms, so that what is parked next is parked later. */
  tick(): Promise<void>;
  /** The group's parked members, longest-parked first. */
  parked(group: SlotGroup): Promise<string[]>;
  close(): Promise<void>;
}

/** Longer than any case runs. */
const LONG_MS = 600_000;
const TTL_MS = LONG_MS;

export function describeSlotStoreCases(name: string, start: () => Promise<SlotStoreUnderTest>): void {
  describe(`${name}: the slot store's cases`, () => {
    let under: SlotStoreUnderTest;
    beforeAll(async () => (under = await start()));
    afterAll(() => under?.close());

    /** A group no other case touches. */
    const groupOf = (limit: number, kind: SlotGroup['kind'] = 'tenant', id = randomUUID()): SlotGroup => ({ kind, id, limit });
    const take = (group: SlotGroup, holder: string, leaseMs = LONG_MS) => under.store.take(group, holder, `parked-${holder}`, leaseMs);
    /** Settles, reserving a slot for as long as any case runs. */
    const settle = (group: SlotGroup, change: SlotChange, ttlMs = TTL_MS) => under.store.settle(group, change, ttlMs, LONG_MS);

    it('gives out at most the limit of slots, and a freed one to the next taker', async () => {
      const group = groupOf(2);
      expect([await take(group, 'a'), await take(group, 'b'), await take(group, 'c')]).toEqual([true, true, false]);
      expect(await settle(group, { free: 'a' }, TTL_MS)).toBeNull();
      expect([await take(group, 'c'), await take(group, 'd')]).toEqual([true, false]);
    });

    it('lets a holder take its own slot again at the limit, and keeps the others out', async () => {
      const group = groupOf(1);
      expect([await take(group, 'a'), await take(group, 'a'), await take(group, 'b')]).toEqual([true, true, false]);
    });

    it("keeps groups apart, also a tenant's and a receiver's of the same name", async () => {
      const id = randomUUID();
      expect(await take(groupOf(1, 'tenant', id), 'a')).toBe(true);
      expect(await take(groupOf(1, 'receiver', id), 'b')).toBe(true);
      expect(await take(groupOf(1), 'c')).toBe(true);
      expect(await take(groupOf(1, 'tenant', id), 'd')).toBe(false);
    });

    it('frees a slot whose lease lapsed, and a renewal does not take it back', async () => {
      const group = groupOf(1);
      expect(await take(group, 'a', under.shortMs)).toBe(true);
      await under.eventually("a's lapsed slot taken by b", under.shortMs, () => take(group, 'b'));
      await under.store.renew(group, 'a', LONG_MS);
      expect(await take(group, 'a')).toBe(false);
    });

    it('ends a held lease a renewal later, as long as the renewal says', async () => {
      const group = groupOf(1);
      expect(await take(group, 'a')).toBe(true);
      await under.store.renew(group, 'a', under.shortMs);
      await under.eventually("a's renewed slot lapsed and taken by b", under.shortMs, () => take(group, 'b'));
    });

    it('reserves each freed slot for the longest-parked member, one per settle, a re-park keeping its place', async () => {
      const group = groupOf(1);
      expect(await take(group, 'a')).toBe(true);
      for (const member of ['p1', 'p2', 'p3', 'p1']) {
        expect(await settle(group, { park: member })).toBeNull();
        await under.tick();
      }
      expect(await under.parked(group)).toEqual(['p1', 'p2', 'p3']);
      expect(await settle(group, { free: 'a' })).toBe('p1');
      // The slot is p1's until its job takes it: neither another settle nor a newcomer gets it.
      expect(await settle(group, {})).toBeNull();
      expect(await take(group, 'b')).toBe(false);
      expect(await under.store.take(group, 'job-1', 'p1', LONG_MS)).toBe(true);
      expect(await settle(group, { free: 'job-1' })).toBe('p2');
      // p2's job is gone: its reserved slot passes to p3.
      expect(await settle(group, { free: 'p2' })).toBe('p3');
      expect(await under.parked(group)).toEqual([]);
    });

    it('keeps a newcomer behind the parked members, and lets the first in line take a free slot', async () => {
      const group = groupOf(1);
      expect(await take(group, 'a')).toBe(true);
      expect(await settle(group, { park: 'p1' })).toBeNull();
      await under.tick();
      expect(await settle(group, { park: 'p2' })).toBeNull();
      // With the limit raised, a slot is free before any settle hands it on.
      const raised = { ...group, limit: 3 };
      expect(await take(raised, 'newcomer')).toBe(false);
      expect(await under.store.take(raised, 'job-2', 'p2', LONG_MS)).toBe(false);
      expect(await under.store.take(raised, 'job-1', 'p1', LONG_MS)).toBe(true);
      expect(await under.store.take(raised, 'job-2', 'p2', LONG_MS)).toBe(true);
      expect(await under.parked(group)).toEqual([]);
    });

    it('frees a slot reserved for a member whose job never took it, once its lease lapsed', async () => {
      const group = groupOf(1);
      expect(await under.store.settle(group, { park: 'p' }, TTL_MS, under.shortMs)).toBe('p');
      await under.eventually("p's reserved slot lapsed and taken by b", under.shortMs, () => take(group, 'b'));
    });

    it('hands a slot freed meanwhile to a member as it parks', async () => {
      const group = groupOf(1);
      expect(await settle(group, { park: 'p' }, TTL_MS)).toBe('p');
      expect(await under.parked(group)).toEqual([]);
    });

    it('takes a parked member off the list once it takes a slot', async () => {
      const group = groupOf(1);
      expect(await take(group, 'a')).toBe(true);
      expect(await settle(group, { park: 'parked-b' }, TTL_MS)).toBeNull();
      expect(await take({ ...group, limit: 2 }, 'b')).toBe(true);
      expect(await under.parked(group)).toEqual([]);
    });

    it("forgets the parked list once the last park's ttl passed", async () => {
      const group = groupOf(1);
      expect(await take(group, 'a')).toBe(true);
      expect(await settle(group, { park: 'p1' }, TTL_MS)).toBeNull();
      expect(await settle(group, { park: 'p2' }, under.shortMs)).toBeNull();
      await under.eventually('the parked list gone', under.shortMs, async () => (await under.parked(group)).length === 0);
      expect(await settle(group, { free: 'a' }, TTL_MS)).toBeNull();
    });
  });
}
