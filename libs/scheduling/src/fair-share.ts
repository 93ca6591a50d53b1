import { PRIORITY_LIMIT, Queue } from 'bullmq';
import { QueueableAction } from '@app/database';
import { queueClient } from './queue-client';

/** How long a second's ranks are remembered after it: longer than any burst takes to drain. */
const RANK_TTL_MS = 3_600_000;

/** Where a job goes in its queue for its tenant's fair share. */
export interface FairShare {
  /** BullMQ's priority: the job's rank among its tenant's jobs of its type due in the same second. */
  priority: number;
  /** When the job becomes runnable in Redis (ms since the epoch): never before it is due. */
  releaseAt: number;
}

/**
 * Fairness between tenants. A job's rank is its place among the jobs of its tenant and action type
 * due in the same second (1 for the first, 2 for the second…). It serves twice:
 * - As BullMQ's priority, which a worker takes lowest first: when one tenant has 50,000 jobs due at
 *   one instant and another 100, the second tenant's jobs rank 1–100 and run among the first
 *   tenant's first 100, not behind all 50,000. Jobs of one rank keep BullMQ's order.
 * - As a pace (`releasePerSec`, FAIR_RELEASE_PER_SEC): the n-th job becomes runnable no sooner than
 *   n ÷ that pace after its second began. BullMQ moves due delayed jobs into the runnable set in
 *   (due time, insertion) order, 1,000 per fetch, and only then applies priorities, so a burst
 *   queued first and due at one instant would be moved in full (50 fetches' work in Redis) before
 *   another tenant's jobs due at the same instant. Paced, a burst becomes runnable at that pace
 *   while the other tenant's few jobs are runnable at once. The pace is set above what the workers
 *   drain, so a burst alone finishes no later; jobs spread over their second are not held at all.
 *
 * The ranks are counters in Redis, one per (type, tenant, second), under the queue's own key
 * prefix so that they live in its hash slot on a Redis Cluster. Counting a group of jobs is one
 * `INCRBY`; the groups of one enqueue go out in one pipeline.
 */
export async function fairShares(queue: Queue, actions: readonly QueueableAction[], now: number, releasePerSec: number): Promise<FairShare[]> {
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
  const shares = new Array<FairShare>(actions.length);
  [...groups.values()].forEach(({ second, indexes }, group) => {
    const [error, last] = replies[2 * group];
    if (error) throw error;
    const first = Number(last) - indexes.length + 1;
    indexes.forEach((index, offset) => {
      const rank = first + offset;
      const paced = releasePerSec > 0 ? second * 1000 + Math.floor(((rank - 1) * 1000) / releasePerSec) : 0;
      shares[index] = { priority: Math.min(rank, PRIORITY_LIMIT), releaseAt: Math.max(actions[index].nextAttemptAt.getTime(), paced) };
    });
  });
  return shares;
}
