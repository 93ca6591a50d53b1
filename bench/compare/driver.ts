/**
 * A child process of `--against`: runs one task with the bench/ code of the tree it was started in
 * (its working directory, through that tree's ts-node and tsconfig paths), so that each commit is
 * measured by its own apps, harness and workloads. Prints the figures as one JSON line.
 *
 * It imports nothing of this tree but types, and calls only what every tree's bench/ has had since
 * 8ab4c93, as 8ab4c93 declares it; later trees added optional parameters only (settings for
 * `startApi`, options for `punctual`). `fairness` is there since abfff5e and `webhooks` as it is
 * since c4f2a0e; each is asked of a tree only when measured.
 */
import { join } from 'node:path';
import type { DriverTask } from './tasks';

const API_PORT = 3900;

type System = unknown;
interface Client {
  close(): void;
}
interface Stores {
  close(): Promise<void>;
}

/** The part of a tree's bench/ the driver uses. */
interface TreeBench {
  Stores: { open(): Promise<Stores> };
  startApi(port: number, env?: Record<string, string>): Promise<{ api: { stop(): Promise<void> }; client: Client }>;
  punctual(client: Client, stores: Stores): System;
  throughput(system: System, workers: number, count: number): Promise<object>;
  firingPrecision(system: System, workers: number, count: number, spreadMs: number): Promise<object>;
  ingest(client: Client, singles: number, batches: number): Promise<object>;
  fairness?(client: Client, port: number, stores: Stores, sizes: object): Promise<FairnessFigures>;
  webhookThroughput?(client: Client, stores: Stores, workers: number, count: number): Promise<object>;
}

/** The part of a fairness run's figures compared. */
interface FairnessFigures {
  otherLag: { p99Ms: number };
  burstDrainMs: number;
  burstAloneDrainMs: number;
}

async function loadTreeBench(root: string, task: DriverTask): Promise<TreeBench> {
  const paths = [
    'harness',
    'workloads/systems',
    'workloads/scheduling',
    'workloads/ingest',
    ...(task.workload === 'fairness' ? ['workloads/fairness'] : []),
    ...(task.workload === 'webhooks' ? ['workloads/webhooks'] : []),
  ];
  const modules = await Promise.all(paths.map((path) => import(join(root, 'bench', path)) as Promise<object>));
  return Object.assign({}, ...modules) as TreeBench;
}

async function measure(bench: TreeBench, task: DriverTask, client: Client, stores: Stores): Promise<object> {
  switch (task.workload) {
    case 'throughput':
      return bench.throughput(bench.punctual(client, stores), task.workers, task.jobs);
    case 'ingest':
      return bench.ingest(client, task.singles, task.batches);
    case 'firing':
      return bench.firingPrecision(bench.punctual(client, stores), task.workers, task.count, (1000 * task.count) / task.perSec);
    case 'fairness': {
      if (!bench.fairness) throw new Error(`${process.cwd()} has no fairness workload (bench/ has it since abfff5e)`);
      const f = await bench.fairness(client, API_PORT, stores, { burst: task.burst, other: task.other, workers: task.workers, rounds: task.rounds });
      return {
        otherP99Ms: f.otherLag.p99Ms,
        drainRatio: Math.round((100 * f.burstDrainMs) / f.burstAloneDrainMs) / 100,
        burstDrainMs: f.burstDrainMs,
        burstAloneDrainMs: f.burstAloneDrainMs,
      };
    }
    case 'webhooks':
      if (!bench.webhookThroughput) throw new Error(`${process.cwd()} has no webhooks workload (bench/ has it since 9d1e250)`);
      return bench.webhookThroughput(client, stores, task.workers, task.jobs);
  }
}

async function main(): Promise<void> {
  // The tree's harness stops the apps it started when this process exits: a signal must exit rather than kill.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(1));
  const task = JSON.parse(process.argv[2]) as DriverTask;
  const bench = await loadTreeBench(process.cwd(), task);
  const stores = await bench.Stores.open(); // migrates with this tree's migrations
  // Pub/sub channels span every database of a Redis server: an API serving RPC would answer a test
  // suite's messages on the same server with its own keys. A tree that knows no RPC ignores the setting.
  const { api, client } = await bench.startApi(API_PORT, { RPC_TRANSPORT_URL: 'off' });
  try {
    process.stdout.write(`${JSON.stringify({ ...task, node: process.version, ...(await measure(bench, task, client, stores)) })}\n`);
  } finally {
    client.close();
    await api.stop();
    await stores.close();
  }
}

main().catch((error: Error) => {
  process.stderr.write(`${error.stack ?? error.message}\n`);
  process.exit(1);
});
