/** What the two BullMQ baselines (on Redis and on Postgres) share: how their jobs are made and run. */
import { LagReporter } from './baseline-process';

interface NoopJob {
  name: string;
  data: { due: number };
  opts: { timestamp: number; delay: number; removeOnComplete: true };
}

/** The part of a BullMQ `Queue` (either backend) the producers use. */
interface BulkQueue {
  addBulk(jobs: NoopJob[]): Promise<unknown>;
}

/** The part of a BullMQ `Worker` (either backend) a worker process uses. */
interface ClosableWorker {
  on(event: 'ready' | 'completed', listener: () => void): unknown;
  close(): Promise<void>;
}

/** No-op jobs due at `dueTimes`, added 1,000 at a time; finished jobs are removed, as a busy queue would. */
export async function addDelayedJobs(queue: BulkQueue, dueTimes: number[]): Promise<void> {
  for (let from = 0; from < dueTimes.length; from += 1000) {
    // BullMQ runs a job at timestamp + delay: both from one clock reading, so the due time is exact.
    const timestamp = Date.now();
    await queue.addBulk(
      dueTimes
        .slice(from, from + 1000)
        .map((due) => ({ name: 'noop', data: { due }, opts: { timestamp, delay: Math.max(0, due - timestamp), removeOnComplete: true } })),
    );
  }
}

/**
 * Inside a baseline worker process: the worker `start` makes runs no-op jobs and reports their lag
 * and their completion; the process says `ready` when BullMQ does and closes the worker on SIGTERM.
 */
export function runNoopWorker(start: (processor: (job: { data: { due: number } }) => Promise<void>) => ClosableWorker): void {
  const reporter = new LagReporter();
  const worker = start(async (job) => reporter.record(Date.now() - job.data.due));
  worker.on('completed', () => reporter.completed());
  worker.on('ready', () => process.stdout.write('ready\n'));
  process.on('SIGTERM', () => void worker.close().then(() => (reporter.stop(), process.exit(0))));
}
