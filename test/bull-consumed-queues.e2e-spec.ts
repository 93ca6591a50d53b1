import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { loadConfig, queuePrefixOf } from '@app/config';
import { ActionQueues, queueConnection } from '@app/scheduling';
import { waitUntil } from '@app/testing';
import { BullConsumedQueues } from '../libs/server/src/worker/execution/bull-consumed-queues';
import { ConsumedJobState, describeConsumedQueuesCases } from './support/consumed-queues-cases';

// The consumed queues' case table on BullMQ's workers and Redis, as the worker runs them: the
// in-memory queues of the unit specs (test/in-memory-consumed-queues.spec.ts) are held to the same cases.
describeConsumedQueuesCases('BullMQ on Redis', async () => {
  const config = loadConfig();
  const prefix = `${config.redis.queuePrefix}-consumed-${randomUUID().slice(0, 8)}`;
  const connection = queueConnection(config.redis, { maxRetriesPerRequest: null });
  const byName = new Map<string, Queue>();
  const queueOf = (name: string): Queue => {
    const queue = byName.get(name) ?? new Queue(name, { connection, prefix: queuePrefixOf(prefix, name) });
    byName.set(name, queue);
    return queue;
  };
  return {
    queues: new BullConsumedQueues({ queueFor: queueOf } as unknown as ActionQueues),
    options: (name) => ({ connection, prefix: queuePrefixOf(prefix, name) }),
    add: async (name, id, data) => void (await queueOf(name).add('case', data, { jobId: id })),
    async eventually(what, name, id, predicate) {
      const stateOf = async (): Promise<ConsumedJobState | null> => {
        const state = await queueOf(name).getJobState(id);
        if (state === 'unknown') return null;
        return state === 'prioritized' || state === 'waiting-children' ? 'waiting' : state;
      };
      await waitUntil(what, async () => predicate(await stateOf()), 15_000, 10);
    },
    async close() {
      await Promise.all([...byName.values()].map(async (queue) => (await queue.obliterate({ force: true }), await queue.close())));
    },
  };
});
