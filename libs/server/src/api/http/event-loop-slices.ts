import { setImmediate as nextTurn } from 'node:timers/promises';

/** The longest a request's loop works before it lets the event loop answer others (a /health/live probe, say). */
export const SLICE_MS = 5;

/**
 * `work` on each item in order, one at a time, as `Promise.all(items.map(work))` would answer, but
 * letting the event loop run between slices of about `sliceMs` of work: a request that checks a
 * thousand items holds every other request back for a slice at most, not for the whole loop. A
 * loop shorter than a slice never waits.
 */
export async function mapInSlices<T, R>(items: readonly T[], work: (item: T, index: number) => R | Promise<R>, sliceMs = SLICE_MS): Promise<R[]> {
  const results: R[] = [];
  let sliceStart = performance.now();
  for (const [index, item] of items.entries()) {
    if (performance.now() - sliceStart >= sliceMs) {
      await nextTurn();
      sliceStart = performance.now();
    }
    results.push(await work(item, index));
  }
  return results;
}
