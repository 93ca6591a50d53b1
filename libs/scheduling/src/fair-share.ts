import { PRIORITY_LIMIT, Queue } from 'bullmq';
import { QueueableAction } from '@app/database';
import { queueClient } from './queue-client';

/** How long a second's ranks are remembered after it: longer than any burst takes to drain. */
const RANK_TTL_MS = 3_600_000;

/**
 * Fairness between tenants, with BullMQ's own priorities. A job's priority is its rank among the
 * jobs of its tenant and action type due in the same second (1 for the first, 2 for the second…),
 * and a worker takes the lowest first. So when one tenant has 50,000 jobs due at one instant and
 * another 100, the second tenant's jobs rank 1–100 and run among the first tenant's first 100,
 * not behind all 50,000. Jobs of one rank keep BullMQ's order (first queued, first run).
 *
 * The ranks are counters in Redis, one per (type, tenant, second), under the queue's own key
 * prefix so that they live in its hash slot on a Redis Cluster. Counting a group of jobs is one
 * `INCRBY`; the groups of one enqueue go out in one pipeline.
 */
export async function fairPriorities(queue: Queue, actions: readonly QueueableAction[], now: number): Promise<number[]> {
  const groups = new Map<string, { second: number; indexes: number[] }>();
  actions.forEach((action, index) => {
    // Overdue jobs compete with what is due now.
    const second = Math.floor(Math.max(action.nextAttemptAt.getTime(), now) / 1000);
    const key = queue.toKey(`fair:${action.tenantId}:${second}`);
    const group = groups.get(key) ?? { second, indexes: [] };
    group.indexes.push(index);
    groups.set(key, group);
  });
  const pipeline = (await queueClient(queue)).pipeline();
  for (const [key, { second, indexes }] of groups) {
    pipeline.incrby(key, indexes.length);
    pipeline.pexpireat(key, second * 1000 + RANK_TTL_MS);
  }
  const replies = (await pipeline.exec()) ?? [];
  const priorities = new Array<number>(actions.length);
  [...groups.values()].forEach(({ indexes }, group) => {
    const [error, last] = replies[2 * group];
    if (error) throw error;
    const first = Number(last) - indexes.length + 1;
    indexes.forEach((index, offset) => (priorities[index] = Math.min(first + offset, PRIORITY_LIMIT)));
  });
  return priorities;
}
