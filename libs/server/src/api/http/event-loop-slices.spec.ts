import { eventLoopTurnsDuring } from '@app/testing';
import { mapInSlices } from './event-loop-slices';

/** Holds the thread for `ms`, as a costly check would. */
function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('mapInSlices', () => {
  it('answers what mapping each item would, in order, with its index', async () => {
    expect(await mapInSlices(['a', 'b', 'c'], async (item, index) => `${item}${index}`)).toEqual(['a0', 'b1', 'c2']);
    expect(await mapInSlices([], () => 1)).toEqual([]);
  });

  it('lets the event loop run between slices of long work, where a plain loop holds it throughout', async () => {
    const items = Array.from({ length: 20 }, (_, i) => i);
    const plain = await eventLoopTurnsDuring(async () => {
      for (let i = 0; i < items.length; i += 1) {
        busyFor(2);
        await Promise.resolve();
      }
    });
    // 40 ms of work in slices of 5 ms: the loop lets go at least every few items.
    const sliced = await eventLoopTurnsDuring(() => mapInSlices(items, () => busyFor(2), 5));
    expect(plain).toBe(0);
    expect(sliced).toBeGreaterThanOrEqual(4);
  });

  it('does not wait a turn per item when the items are cheap', async () => {
    const turns = await eventLoopTurnsDuring(() =>
      mapInSlices(
        Array.from({ length: 1000 }, (_, i) => i),
        (i) => i * 2,
        50,
      ),
    );
    expect(turns).toBeLessThan(20);
  });

  it('stops at the first item whose work fails, with its error', async () => {
    const seen: number[] = [];
    const failing = mapInSlices([1, 2, 3], (item) => {
      seen.push(item);
      if (item === 2) throw new Error('item 2 is bad');
      return item;
    });
    await expect(failing).rejects.toThrow('item 2 is bad');
    expect(seen).toEqual([1, 2]);
  });
});
