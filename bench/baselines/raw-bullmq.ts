/**
 * The ceiling: BullMQ alone, no Postgres. Delayed jobs with a no-op processor, as Punctual's
 * benchmark action type is a no-op. Run as a worker process, or produce with `produceRawJobs`.
 */
import { Queue, Worker } from 'bullmq';
import { redisOptionsFromUrl } from '@app/config';
import { LagReporter } from './baseline-process';

const QUEUE = 'raw-baseline';
const PREFIX = 'bench-raw';

export async function produceRawJobs(redisUrl: string, dueTimes: number[]): Promise<void> {
  const queue = new Queue(QUEUE, { connection: redisOptionsFromUrl(redisUrl), prefix: PREFIX });
  for (let from = 0; from < dueTimes.length; from += 1000) {
    // BullMQ runs a job at timestamp + delay: both from one clock reading, so the due time is exact.
    const timestamp = Date.now();
    await queue.addBulk(
      dueTimes
        .slice(from, from + 1000)
        .map((due) => ({ name: 'noop', data: { due }, opts: { timestamp, delay: Math.max(0, due - timestamp), removeOnComplete: true } })),
    );
  }
  await queue.close();
}

export async function obliterateRawJobs(redisUrl: string): Promise<void> {
  const queue = new Queue(QUEUE, { connection: redisOptionsFromUrl(redisUrl), prefix: PREFIX });
  await queue.obliterate({ force: true });
  await queue.close();
}

if (require.main === module) {
  const reporter = new LagReporter();
  const worker = new Worker<{ due: number }>(QUEUE, async (job) => reporter.record(Date.now() - job.data.due), {
    connection: { ...redisOptionsFromUrl(process.env.REDIS_URL!), maxRetriesPerRequest: null },
    prefix: PREFIX,
    concurrency: Number(process.env.WORKER_CONCURRENCY),
  });
  worker.on('ready', () => process.stdout.write('ready\n'));
  process.on('SIGTERM', () => void worker.close().then(() => (reporter.stop(), process.exit(0))));
}
