import { TargetSlots } from './target-slots';

describe('TargetSlots', () => {
  it('lets each target run its share at once, and others beside it', () => {
    const slots = new TargetSlots(2);
    const first = slots.take('a', 0);
    const second = slots.take('a', 0);
    expect('release' in first && 'release' in second).toBe(true);
    expect(slots.take('a', 0)).toEqual({ waitMs: expect.any(Number) });
    expect('release' in slots.take('b', 0)).toBe(true);
    if ('release' in first) first.release(10);
    expect('release' in slots.take('a', 10)).toBe(true);
  });

  it('makes a full target wait about as long as it takes, within bounds', () => {
    const slots = new TargetSlots(2);
    const done = slots.take('quick', 0);
    slots.take('quick', 0);
    if ('release' in done) done.release(30);
    slots.take('quick', 40);
    // The last attempt took 30 ms, the oldest running one is 45 ms old: wait at least that.
    const quickWait = slots.take('quick', 45) as { waitMs: number };
    expect(quickWait.waitMs).toBeGreaterThanOrEqual(45);
    expect(quickWait.waitMs).toBeLessThan(65);

    const hanging = new TargetSlots(1);
    hanging.take('hanging', 0);
    expect((hanging.take('hanging', 5) as { waitMs: number }).waitMs).toBeLessThan(40);
    const stuck = hanging.take('hanging', 60_000) as { waitMs: number };
    expect(stuck.waitMs).toBeGreaterThanOrEqual(5000);
    expect(stuck.waitMs).toBeLessThan(5020);
  });
});
