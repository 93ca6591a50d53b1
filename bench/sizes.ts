/** How much each workload does: the full run's sizes, or `--quick`'s small ones (a smoke run, not comparable). */
export function benchSizes(quick: boolean) {
  return quick
    ? {
        singles: 300,
        batches: 4,
        firing: [
          { perSec: 500, count: 500 },
          { perSec: 2000, count: 500 },
        ],
        firingWorkers: 2,
        burst: 500,
        workers: [1, 2],
        fairness: { burst: 5000, other: 50, workers: 2, rounds: 1 },
        backlog: [0, 2000, 5000],
        reads: { actions: 20_000, historyEntries: 5_000, requests: 200 },
        year: { actions: 20_000, repeating: 1, requests: 200 },
        calendars: { calls: 2000, cronActions: 500 },
        calendarChange: { actions: 5_000, changes: 10 },
        observability: { singles: 1000, burst: 2000, rounds: 1 },
        unsigned: { requests: 50, probes: 200 },
        costly: { rounds: 3 },
      }
    : {
        singles: 10_000,
        batches: 40,
        firing: [
          { perSec: 500, count: 5000 },
          { perSec: 2000, count: 20_000 },
        ],
        firingWorkers: 2,
        burst: 20_000,
        workers: [1, 2, 4],
        fairness: { burst: 50_000, other: 100, workers: 2, rounds: 2 },
        backlog: [0, 100_000, 1_000_000],
        reads: { actions: 1_000_000, historyEntries: 50_000, requests: 1000 },
        year: { actions: 1_000_000, repeating: 10, requests: 1000 },
        calendars: { calls: 20_000, cronActions: 2000 },
        calendarChange: { actions: 100_000, changes: 50 },
        observability: { singles: 10_000, burst: 20_000, rounds: 3 },
        unsigned: { requests: 500, probes: 2000 },
        costly: { rounds: 20 },
      };
}

export type BenchSizes = ReturnType<typeof benchSizes>;
