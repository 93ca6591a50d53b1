import { ComparableWorkload } from '../options';
import { BenchSizes } from '../sizes';

/** One measurement the driver makes, the same in both trees. */
export type DriverTask =
  | { workload: 'throughput'; jobs: number; workers: number }
  | { workload: 'ingest'; singles: number; batches: number }
  | { workload: 'firing'; count: number; perSec: number; workers: number }
  | { workload: 'fairness'; burst: number; other: number; workers: number; rounds: number }
  | { workload: 'webhooks'; jobs: number; workers: number };

/** The sizes bench/run.ts uses for the same figures: its one-worker throughput (with and without webhooks), its ingest, its firing at 500 due/s, its fairness. */
export function taskFor(workload: ComparableWorkload, sizes: BenchSizes): DriverTask {
  switch (workload) {
    case 'throughput':
      return { workload, jobs: sizes.burst, workers: 1 };
    case 'ingest':
      return { workload, singles: sizes.singles, batches: sizes.batches };
    case 'firing':
      return { workload, ...sizes.firing.find((f) => f.perSec === 500)!, workers: sizes.firingWorkers };
    case 'fairness':
      return { workload, ...sizes.fairness };
    case 'webhooks':
      return { workload, jobs: sizes.burst, workers: 1 };
  }
}

export interface Figure {
  label: string;
  /** The field of the driver's JSON line that holds it. */
  field: string;
}

/** The figures compared for a task. */
export function figuresOf(task: DriverTask): Figure[] {
  switch (task.workload) {
    case 'throughput':
      return [{ label: `throughput, ${task.jobs.toLocaleString('en')} due at once, ${task.workers} worker (jobs/s)`, field: 'jobsPerSec' }];
    case 'ingest':
      return [
        { label: 'single POST /actions, 64 in flight (actions/s)', field: 'singleActionsPerSec' },
        { label: 'single POST /actions, 64 in flight: p99 (ms)', field: 'singleP99Ms' },
        { label: 'POST /actions/batch of 500 (actions/s)', field: 'batchActionsPerSec' },
        { label: 'POST /actions/batch of 500: p99 (ms)', field: 'batchP99Ms' },
      ];
    case 'firing':
      return [
        { label: `firing lag at ${task.perSec} due/s, ${task.workers} workers: p50 (ms)`, field: 'p50Ms' },
        { label: `firing lag at ${task.perSec} due/s, ${task.workers} workers: p99 (ms)`, field: 'p99Ms' },
        { label: `firing at ${task.perSec} due/s: jobs run early`, field: 'early' },
      ];
    case 'fairness':
      return [
        { label: `fairness: tenant B's firing lag beside A's ${task.burst.toLocaleString('en')}, ${task.workers} workers: p99 (ms)`, field: 'otherP99Ms' },
        { label: "fairness: A's drain beside B ÷ alone", field: 'drainRatio' },
      ];
    case 'webhooks':
      return [
        { label: `throughput with a subscription on every event, ${task.workers} worker (jobs/s)`, field: 'jobsPerSec' },
        { label: 'webhook events lost', field: 'eventsLost' },
        { label: 'last webhook event after the last action (s)', field: 'allDeliveredAfterSec' },
      ];
  }
}
