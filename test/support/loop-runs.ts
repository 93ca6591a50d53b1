import { INestApplicationContext } from '@nestjs/common';
import { PeriodicTask } from '@app/runtime';
import { PromotionLoop } from '@app/server';
import { waitUntil } from '@app/testing';

/**
 * Waits until `task` has ended `count` runs that started after this call (the run in progress
 * when it is called may have started before, hence one more): the loop has looked at the world
 * as it is now. What a spec waits for before it asserts that nothing more happened.
 */
export async function runsSinceNow(task: PeriodicTask, count: number, timeoutMs = 15_000): Promise<void> {
  const target = task.runsEnded + count + 1;
  await waitUntil(`${task.constructor.name} to end ${count} run(s) started from now`, () => task.runsEnded >= target, timeoutMs);
}

/**
 * Waits until the worker's promoter has swept `count` times since now: any PENDING action due by
 * now that had no job would have been queued by then.
 */
export function promotionsSinceNow(worker: INestApplicationContext, count = 2): Promise<void> {
  return runsSinceNow(worker.get(PromotionLoop), count);
}
