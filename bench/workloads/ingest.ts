import { PunctualClient } from '@app/client';
import { BenchClient } from '../bench-client';
import { percentile } from '../harness';

export interface IngestFigures {
  singleActionsPerSec: number;
  singleP50Ms: number;
  singleP99Ms: number;
  batchActionsPerSec: number;
  batchP50Ms: number;
  batchP99Ms: number;
}

const farFuture = () => ({ action: 'HTTP_REQUEST', executionTime: Date.now() + 86_400_000, data: { url: 'http://127.0.0.1:1/never' } });

async function timed(requests: number, concurrency: number, send: () => Promise<{ status: number }>): Promise<{ seconds: number; latencies: number[] }> {
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

/** `count` signed single creates at concurrency 64, after an unmeasured warm-up of 500. */
export async function singleCreates(client: BenchClient, count: number): Promise<{ seconds: number; latencies: number[] }> {
  const createOne = () => client.post('/actions', farFuture());
  await timed(500, 64, createOne);
  return timed(count, 64, createOne);
}

/** Signed single creates at concurrency 64, and batches of 500, each after a short unmeasured warm-up. */
export async function ingest(client: BenchClient, singles: number, batches: number): Promise<IngestFigures> {
  const createBatch = () => client.post('/actions/batch', { items: Array.from({ length: 500 }, farFuture) });
  await timed(4, 4, createBatch);
  const single = await singleCreates(client, singles);
  const batch = await timed(batches, 4, createBatch);
  return {
    singleActionsPerSec: Math.round(singles / single.seconds),
    singleP50Ms: Math.round(percentile(single.latencies, 50)),
    singleP99Ms: Math.round(percentile(single.latencies, 99)),
    batchActionsPerSec: Math.round((batches * 500) / batch.seconds),
    batchP50Ms: Math.round(percentile(batch.latencies, 50)),
    batchP99Ms: Math.round(percentile(batch.latencies, 99)),
  };
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
