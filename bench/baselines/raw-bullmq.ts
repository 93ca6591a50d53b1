/**
 * The ceiling: BullMQ alone, no Postgres. Delayed jobs with a no-op processor, as Punctual's
 * benchmark action type is a no-op. Run as a worker process, or produce with `produceRawJobs`.
 */
import { Queue, Worker } from 'bullmq';
import { redisOptionsFromUrl } from '@punctual/contract';
import { addDelayedJobs, runNoopWorker } from './bullmq-jobs';

const QUEUE = 'raw-baseline';
const PREFIX = 'bench-raw';

export async function produceRawJobs(redisUrl: string, dueTimes: number[]): Promise<void> {
  const queue = new Queue(QUEUE, { connection: redisOptionsFromUrl(redisUrl), prefix: PREFIX });
  await addDelayedJobs(queue, dueTimes);
  await queue.close();
}

export async function obliterateRawJobs(redisUrl: string): Promise<void> {
  const queue = new Queue(QUEUE, { connection: redisOptionsFromUrl(redisUrl), prefix: PREFIX });
  await queue.obliterate({ force: true });
  await queue.close();
}

if (require.main === module) {
  runNoopWorker(
    (processor) =>
      new Worker(QUEUE, processor, {
        connection: { ...redisOptionsFromUrl(process.env.REDIS_URL!), maxRetriesPerRequest: null },
        prefix: PREFIX,
        concurrency: Number(process.env.WORKER_CONCURRENCY),
      }),
  );
}
