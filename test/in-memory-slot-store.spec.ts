import { InMemorySlotStore, ManualClock, SPEC_NOW } from '@app/testing';
import { describeSlotStoreCases } from './support/slot-store-cases';

// The slot store the unit specs stand in for Redis with, held to the same case table as the Lua
// scripts (test/redis-slot-store.e2e-spec.ts): a unit spec passing on it says something about production.
describeSlotStoreCases('The in-memory slot store', async () => {
  const clock = new ManualClock(SPEC_NOW);
  const store = new InMemorySlotStore(clock);
  return {
    store,
    shortMs: 200,
    async eventually(what, ms, probe) {
      clock.advance(ms + 1);
      if (!(await probe())) throw new Error(`Not so ${ms} ms later: ${what}`);
    },
    tick: async () => clock.advance(1),
    parked: async (group) => store.parked(group),
    close: async () => undefined,
  };
});
