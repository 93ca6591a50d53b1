import { InMemoryConsumedQueues, waitUntil } from '@app/testing';
import { describeConsumedQueuesCases } from './support/consumed-queues-cases';

// The queues the unit specs stand in for BullMQ with, held to the same case table as BullMQ's
// workers on Redis (test/bull-consumed-queues.e2e-spec.ts): a unit spec passing on them says
// something about production.
describeConsumedQueuesCases('The in-memory consumed queues', async () => {
  const queues = new InMemoryConsumedQueues();
  return {
    queues,
    options: () => ({ connection: {} }),
    // Handed over, not awaited: BullMQ's add returns before the job runs.
    add: async (queue, id, data) => void queues.hand(queues.job(queue, id, data)).catch(() => undefined),
    eventually: async (what, queue, id, predicate) => void (await waitUntil(what, async () => predicate(queues.stateOf(queue, id)), 1000, 1)),
    close: async () => undefined,
  };
});
