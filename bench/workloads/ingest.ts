import { PunctualClient } from '@punctual/client';
import { stopBaselineProcess } from '../baselines/baseline-process';
import { obliterateIngestJobs, startIngestServer } from '../baselines/bullmq-ingest-server';
import { BenchClient } from '../bench-client';
import { BENCH_KEY, freePort, Stores } from '../harness';
import { percentile } from '../percentile';
import { CpuPerAction, cpuDuring, cpuPerAction, ProcessGroups } from '../proc-cpu';

/** The processes a create runs through: the API's, and the store servers working for it. */
export type IngestProcesses = () => Promise<ProcessGroups<'api' | 'postgres' | 'redis'>>;

export interface IngestFigures {
  singleActionsPerSec: number;
  singleP50Ms: number;
  singleP99Ms: number;
  /** CPU time per created action, in ms, when the processes are given. */
  singleCpuMsPerAction?: CpuPerAction<'api' | 'postgres' | 'redis'>;
  batchActionsPerSec: number;
  batchP50Ms: number;
  batchP99Ms: number;
  batchCpuMsPerAction?: CpuPerAction<'api' | 'postgres' | 'redis'>;
}

const farFuture = () => ({ action: 'HTTP_REQUEST' as const, executionTime: Date.now() + 86_400_000, data: { url: 'http://127.0.0.1:1/never' } });

type Timed = { seconds: number; latencies: number[] };

async function timed(requests: number, concurrency: number, send: () => Promise<{ status: number }>): Promise<Timed> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        next += 1;
        const t0 = performance.now();
        const response = await send();
        if (response.status !== 201) throw new Error(`create answered ${response.status}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { seconds: (performance.now() - started) / 1000, latencies: latencies.sort((a, b) => a - b) };
}

/** `count` signed single creates at concurrency 64. */
const singlesAt64 = (client: BenchClient, count: number) => timed(count, 64, () => client.post('/actions', farFuture()));

/** `count` signed single creates at concurrency 64, after an unmeasured warm-up of 500. */
export async function singleCreates(client: BenchClient, count: number): Promise<Timed> {
  await singlesAt64(client, 500);
  return singlesAt64(client, count);
}

/** Runs `work`, creating `actions`; with `processes`, also the CPU time they spent per action meanwhile. */
async function withCpu(
  processes: IngestProcesses | undefined,
  actions: number,
  work: () => Promise<Timed>,
): Promise<Timed & { cpu?: CpuPerAction<'api' | 'postgres' | 'redis'> }> {
  if (!processes) return work();
  const { result, cpuMs } = await cpuDuring(processes, work);
  return { ...result, cpu: cpuPerAction(cpuMs, actions) };
}

/**
 * Signed single creates at concurrency 64, and batches of 500, each after a short unmeasured
 * warm-up; with `processes`, the CPU time they spent per created action.
 */
export async function ingest(client: BenchClient, singles: number, batches: number, processes?: IngestProcesses): Promise<IngestFigures> {
  const createBatch = () => client.post('/actions/batch', { items: Array.from({ length: 500 }, farFuture) });
  await timed(4, 4, createBatch);
  await singlesAt64(client, 500);
  const single = await withCpu(processes, singles, () => singlesAt64(client, singles));
  const batch = await withCpu(processes, batches * 500, () => timed(batches, 4, createBatch));
  return {
    singleActionsPerSec: Math.round(singles / single.seconds),
    singleP50Ms: Math.round(percentile(single.latencies, 50)),
    singleP99Ms: Math.round(percentile(single.latencies, 99)),
    singleCpuMsPerAction: single.cpu,
    batchActionsPerSec: Math.round((batches * 500) / batch.seconds),
    batchP50Ms: Math.round(percentile(batch.latencies, 50)),
    batchP99Ms: Math.round(percentile(batch.latencies, 99)),
    batchCpuMsPerAction: batch.cpu,
  };
}

/** The system name of `bullmqIngest`'s figures. */
export const BULLMQ_INGEST = 'BullMQ behind node:http';

/**
 * The floor of an HTTP process that enqueues, measured as `ingest` measures Punctual: the same
 * signed requests, warm-ups and readings, against one process that hands each body to BullMQ's
 * `add` (a batch's items to `addBulk`) and checks nothing. Its CPU time: that process's as `api`,
 * Redis's. Its queue is emptied before, and after so later workloads find Redis as it was.
 */
export async function bullmqIngest(stores: Stores, singles: number, batches: number): Promise<IngestFigures> {
  await obliterateIngestJobs();
  const port = await freePort();
  const server = await startIngestServer(port);
  const client = new BenchClient(port, BENCH_KEY);
  try {
    const processes = async () => ({ api: [server.pid!], ...(await stores.serverProcesses([], true)) });
    return await ingest(client, singles, batches, processes);
  } finally {
    client.close();
    await stopBaselineProcess(server);
    await obliterateIngestJobs();
  }
}

export interface RpcIngestFigures {
  rpcActionsPerSec: number;
  rpcP50Ms: number;
  rpcP99Ms: number;
}

/** Signed single creates over the RPC transport at concurrency 64, as `ingest` measures them over HTTP. */
export async function rpcIngest(client: PunctualClient, singles: number): Promise<RpcIngestFigures> {
  const create = async () => (await client.create(farFuture()), { status: 201 });
  await timed(500, 64, create);
  const single = await timed(singles, 64, create);
  return {
    rpcActionsPerSec: Math.round(singles / single.seconds),
    rpcP50Ms: Math.round(percentile(single.latencies, 50)),
    rpcP99Ms: Math.round(percentile(single.latencies, 99)),
  };
}
