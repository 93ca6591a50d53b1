/**
 * `npm run bench [-- --quick]`: Punctual's figures beside raw BullMQ's and pg-boss's, measured
 * in one run on this machine's Postgres and Redis. Prints one JSON line per measurement and a
 * table of figures and targets; writes bench/results/latest.json. Asserts nothing.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { BenchClient } from './bench-client';
import { startApi, Stores } from './harness';
import { ingest } from './workloads/ingest';
import { firingPrecision, LagFigures, throughput } from './workloads/scheduling';
import { createNoopActions, pgBoss, punctual, rawBullmq, System } from './workloads/systems';

const quick = process.argv.includes('--quick');
const SIZES = quick
  ? { singles: 300, batches: 4, firing: [{ perSec: 500, count: 500 }, { perSec: 2000, count: 500 }], firingWorkers: 2, burst: 500, workers: [1, 2], backlog: [0, 2000, 5000] }
  : { singles: 10_000, batches: 40, firing: [{ perSec: 500, count: 5000 }, { perSec: 2000, count: 20_000 }], firingWorkers: 2, burst: 20_000, workers: [1, 2, 4], backlog: [0, 100_000, 1_000_000] };
const API_PORT = 3900;
const FAST_HZ = 100;

const results = {
  machine: { cpus: cpus().length, model: cpus()[0]?.model, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version },
  quick,
  measurements: [] as Record<string, unknown>[],
};

function report(workload: string, figures: object): void {
  const line = { workload, ...figures };
  results.measurements.push(line);
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

function find<T>(workload: string, where: Record<string, unknown> = {}): T | undefined {
  return results.measurements.find((m) => m.workload === workload && Object.entries(where).every(([k, v]) => m[k] === v)) as T | undefined;
}

async function firing(systems: System[], stores: Stores): Promise<void> {
  const originalHz = Number(((await stores.redis.config('GET', 'hz')) as string[])[1]);
  try {
    // A quick run keeps Redis's own setting; a full one also measures at hz 100.
    for (const hz of [...new Set(quick ? [originalHz] : [originalHz, FAST_HZ])]) {
      await stores.redis.config('SET', 'hz', String(hz));
      // pg-boss does not use Redis: measured once.
      for (const system of systems.filter((s) => s !== pgBoss || hz === originalHz)) {
        for (const { perSec, count } of SIZES.firing) {
          const figures = await firingPrecision(system, SIZES.firingWorkers, count, (1000 * count) / perSec);
          report('firing', { system: system.name, duePerSec: perSec, redisHz: system === pgBoss ? null : hz, workers: SIZES.firingWorkers, ...figures });
        }
      }
    }
  } finally {
    await stores.redis.config('SET', 'hz', String(originalHz));
  }
}

async function backlogMemory(client: BenchClient, stores: Stores): Promise<void> {
  await stores.reset();
  const farFuture = Date.now() + 30 * 86_400_000;
  let inserted = 0;
  const points: { actions: number; redisUsedMemory: number; actionsTableBytes: number }[] = [];
  for (const target of SIZES.backlog) {
    await createNoopActions(client, Array(target - inserted).fill(farFuture));
    inserted = target;
    const redisUsedMemory = Number(/used_memory:(\d+)/.exec(await stores.redis.info('memory'))![1]);
    const { rows } = await stores.db.query(`SELECT pg_total_relation_size('actions')::bigint AS bytes`);
    points.push({ actions: target, redisUsedMemory, actionsTableBytes: Number(rows[0].bytes) });
  }
  report('backlogMemory', { points });
}

async function main(): Promise<void> {
  const stores = await Stores.open();
  await stores.reset();
  const { api, client } = await startApi(API_PORT);
  const systems = [punctual(client, stores), rawBullmq, pgBoss];
  try {
    report('ingest', await ingest(client, SIZES.singles, SIZES.batches));
    await firing(systems, stores);
    for (const system of systems) {
      for (const workers of SIZES.workers) {
        report('throughput', { system: system.name, workers, jobs: SIZES.burst, ...(await throughput(system, workers, SIZES.burst)), settings: system.settings });
      }
    }
    await backlogMemory(client, stores);
  } finally {
    client.close();
    await api.stop();
    await stores.close();
  }
  printTable();
  mkdirSync(join(__dirname, 'results'), { recursive: true });
  writeFileSync(join(__dirname, 'results', 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
}

function printTable(): void {
  const tp = (system: string, workers: number) => find<{ jobsPerSec: number; machineCpuPercent: number }>('throughput', { system, workers })!;
  const lag = (system: string, duePerSec: number, redisHz: number | null) => find<LagFigures>('firing', { system, duePerSec, redisHz });
  const lagText = (figures: LagFigures | undefined) => (figures ? `${figures.p99Ms} ms, ${figures.early} early` : 'n/a');
  const hzValues = [...new Set(results.measurements.filter((m) => m.workload === 'firing' && m.redisHz !== null).map((m) => m.redisHz as number))];
  const ingestFigures = find<{ batchActionsPerSec: number; singleActionsPerSec: number }>('ingest')!;
  const backlog = find<{ points: { actions: number; redisUsedMemory: number }[] }>('backlogMemory')!.points;
  const growth = backlog[backlog.length - 1].redisUsedMemory / backlog[0].redisUsedMemory - 1;

  const rows: [string, string, string][] = [];
  for (const workers of SIZES.workers) {
    const [p, raw, boss] = [tp('Punctual', workers), tp('raw BullMQ', workers), tp('pg-boss', workers)];
    rows.push([
      `fulfilled throughput, all due at once, ${workers} worker(s)`,
      `${p.jobsPerSec}/s (CPU ${p.machineCpuPercent} %); raw BullMQ ${raw.jobsPerSec}/s → ${(p.jobsPerSec / raw.jobsPerSec).toFixed(2)} ×; pg-boss ${boss.jobsPerSec}/s → ${(p.jobsPerSec / boss.jobsPerSec).toFixed(2)} ×`,
      '≥ 0.5 × raw BullMQ, ≥ 2 × pg-boss',
    ]);
  }
  rows.push(['1 → 2 workers', `${(tp('Punctual', 2).jobsPerSec / tp('Punctual', 1).jobsPerSec).toFixed(2)} × (machine CPU ${tp('Punctual', 1).machineCpuPercent} % → ${tp('Punctual', 2).machineCpuPercent} %)`, '≥ 1.5 ×']);
  rows.push(['ingest through /actions/batch', `${ingestFigures.batchActionsPerSec}/s`, '≥ 10,000/s']);
  rows.push(['ingest through single POST /actions, concurrency 64', `${ingestFigures.singleActionsPerSec}/s`, '≥ 2,000/s']);
  for (const [duePerSec, target] of [[500, '≤ 25 ms, none early (Redis hz 100)'], [2000, '≤ 100 ms, none early']] as const) {
    for (const hz of hzValues) {
      rows.push([
        `firing lag p99 at ${duePerSec} due/s, Redis hz ${hz}`,
        `${lagText(lag('Punctual', duePerSec, hz))}; raw BullMQ ${lagText(lag('raw BullMQ', duePerSec, hz))}; pg-boss ${lagText(lag('pg-boss', duePerSec, null))}`,
        target,
      ]);
    }
  }
  rows.push([`Redis memory, 0 → ${backlog[backlog.length - 1].actions.toLocaleString('en')} far-future actions`, `${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)} %`, 'flat (±10 %)']);

  const sizes = quick ? ' (--quick sizes: smoke run, not comparable)' : '';
  process.stdout.write(`\n${results.machine.cpus} × ${results.machine.model}, Node ${results.machine.node}${sizes}\n\n`);
  process.stdout.write('| figure | measured | target |\n| --- | --- | --- |\n');
  for (const row of rows) process.stdout.write(`| ${row.join(' | ')} |\n`);
}

main().catch((error: Error) => {
  process.stderr.write(`Benchmark failed: ${error.stack ?? error.message}\n`);
  process.exit(1);
});
