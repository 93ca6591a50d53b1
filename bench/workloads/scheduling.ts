import { waitUntil } from '@app/testing';
import { percentile } from '../percentile';
import { CpuPerAction, cpuDuring, cpuPerAction, withMachineCpu } from '../proc-cpu';
import { RunningSystem, System, SystemProcesses } from './systems';

/** CPU time per job, in ms: all of it, and each kind of process's share. */
export type CpuPerJob = CpuPerAction<keyof SystemProcesses>;

/** Jobs run right after the workers start and before measuring: connections opened, code warmed up. */
const WARM_UP_JOBS = 1000;

export interface LagFigures {
  count: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
  early: number;
}

/** Time to schedule `count` jobs before the first is due. */
const leadMs = (count: number) => 2000 + count / 4;

export function lagFigures(lags: number[]): LagFigures {
  const sorted = [...lags].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    count: sorted.length,
    p50Ms: round(percentile(sorted, 50)),
    p95Ms: round(percentile(sorted, 95)),
    p99Ms: round(percentile(sorted, 99)),
    maxMs: round(sorted[sorted.length - 1]),
    early: sorted.filter((lag) => lag < 0).length,
  };
}

async function startWarm(system: System, workers: number): Promise<RunningSystem> {
  const running = await system.start(workers);
  await running.schedule(Array<number>(WARM_UP_JOBS).fill(Date.now()));
  await waitUntil(`${system.name}: warm-up`, async () => (await running.finished()) >= WARM_UP_JOBS, 60_000, 50);
  await running.forget();
  return running;
}

/** `count` jobs due uniformly over `spreadMs`: how late each one starts. */
export async function firingPrecision(system: System, workers: number, count: number, spreadMs: number): Promise<LagFigures> {
  const running = await startWarm(system, workers);
  try {
    const start = Date.now() + leadMs(count);
    await running.schedule(Array.from({ length: count }, (_, i) => Math.round(start + (i * spreadMs) / count)));
    await waitUntil(`${system.name}: every job run`, async () => (await running.finished()) >= count, spreadMs + 120_000, 200);
    return lagFigures(await running.lags());
  } finally {
    await running.stop();
  }
}

/**
 * `count` jobs due at one instant: jobs done per second until the last is done, the machine's CPU
 * use meanwhile, and the CPU time per job of every process the system runs on.
 */
export async function throughput(
  system: System,
  workers: number,
  count: number,
): Promise<{ jobsPerSec: number; machineCpuPercent: number; cpuMsPerJob: CpuPerJob }> {
  const running = await startWarm(system, workers);
  try {
    const due = Date.now() + leadMs(count);
    await running.schedule(Array<number>(count).fill(due));
    await waitUntil('the due time', () => Date.now() >= due, 600_000, 5);
    const {
      machineCpuPercent,
      result: { result: end, cpuMs },
    } = await withMachineCpu(() =>
      cpuDuring(
        () => running.processes(),
        async () => {
          await waitUntil(`${system.name}: every job done`, async () => (await running.finished()) >= count, 600_000, 50);
          return Date.now();
        },
      ),
    );
    return { jobsPerSec: Math.round(count / ((end - due) / 1000)), machineCpuPercent, cpuMsPerJob: cpuPerAction(cpuMs, count) };
  } finally {
    await running.stop();
  }
}
