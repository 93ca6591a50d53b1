import { waitUntil } from '@app/testing';
import { BenchClient } from '../bench-client';
import { BENCH_OTHER_TENANT_KEY, startWorkers, Stores } from '../harness';
import { createNoopActions } from './systems';
import { lagFigures, LagFigures } from './scheduling';

const WARM_UP_JOBS = 1000;

export interface FairnessSizes {
  /** Tenant A's actions due at one instant. */
  burst: number;
  /** Tenant B's actions due at the same instant, queued after A's. */
  other: number;
  workers: number;
  /** Runs of each kind, alternated: A alone, then A with B. */
  rounds: number;
}

export interface FairnessFigures {
  burst: number;
  other: number;
  workers: number;
  /** B's firing lag over every round with B. */
  otherLag: LagFigures;
  /** The lowest firing lag of A's burst, with B: how long the burst took to start at all. */
  burstFirstLagMs: number;
  /** The share of A's burst that had started when B's last action started (contract: under half). */
  burstStartedBeforeOtherPercent: number;
  /** The median time from the due instant until A's last action completed: with B, and alone. */
  burstDrainMs: number;
  burstAloneDrainMs: number;
}

/**
 * One tenant's burst beside another tenant's few actions due at the same instant (contract §13):
 * how late B's actions start, and how long A's burst takes to drain with B and without. B's
 * actions are queued after all of A's, so that first come, first served would run them last.
 */
export async function fairness(client: BenchClient, port: number, stores: Stores, sizes: FairnessSizes): Promise<FairnessFigures> {
  const other = new BenchClient(port, BENCH_OTHER_TENANT_KEY);
  try {
    const alone: number[] = [];
    const beside: number[] = [];
    const otherLags: number[] = [];
    const firstLags: number[] = [];
    const startedBefore: number[] = [];
    for (let round = 0; round < sizes.rounds; round += 1) {
      alone.push((await burstRun(client, null, stores, sizes)).drainMs);
      const withOther = await burstRun(client, other, stores, sizes);
      beside.push(withOther.drainMs);
      otherLags.push(...withOther.otherLags);
      firstLags.push(withOther.firstLagMs);
      startedBefore.push(withOther.startedBeforeOther);
    }
    return {
      burst: sizes.burst,
      other: sizes.other,
      workers: sizes.workers,
      otherLag: lagFigures(otherLags),
      burstFirstLagMs: median(firstLags),
      burstStartedBeforeOtherPercent: Math.round((1000 * Math.max(...startedBefore)) / sizes.burst) / 10,
      burstDrainMs: median(beside),
      burstAloneDrainMs: median(alone),
    };
  } finally {
    other.close();
  }
}

async function burstRun(
  client: BenchClient,
  other: BenchClient | null,
  stores: Stores,
  sizes: FairnessSizes,
): Promise<{ drainMs: number; otherLags: number[]; firstLagMs: number; startedBeforeOther: number }> {
  await stores.reset();
  const workers = await startWorkers(sizes.workers);
  try {
    await createNoopActions(client, Array<number>(WARM_UP_JOBS).fill(Date.now()));
    await waitUntil('fairness: warm-up', async () => (await completed(stores)) >= WARM_UP_JOBS, 60_000, 50);
    await stores.db.query(`TRUNCATE actions, action_history, idempotency_keys`);

    const total = sizes.burst + (other ? sizes.other : 0);
    const due = Date.now() + 2000 + total / 4;
    await createNoopActions(client, Array<number>(sizes.burst).fill(due));
    if (other) await createNoopActions(other, Array<number>(sizes.other).fill(due));
    if (Date.now() >= due) throw new Error('fairness: the actions were not all stored before they came due');
    await waitUntil('fairness: every action done', async () => (await completed(stores)) >= total, 600_000, 50);

    const { rows: drained } = await stores.db.query<{ ms: number }>(
      `SELECT (extract(epoch FROM max(updated_at)) * 1000 - $1)::float AS ms FROM actions WHERE tenant_id = 'default'`,
      [due],
    );
    // When each action started (its claim), and how late.
    const { rows: starts } = await stores.db.query<{ tenant: string; at: number; lag: number }>(
      `SELECT a.tenant_id AS tenant, extract(epoch FROM h.at)::float * 1000 AS at, (extract(epoch FROM h.at - a.execution_time) * 1000)::float AS lag
       FROM action_history h JOIN actions a ON a.id = h.action_id WHERE h.to_status = 'IN_PROGRESS'`,
    );
    const burst = starts.filter((start) => start.tenant === 'default');
    const others = starts.filter((start) => start.tenant === 'bench-other');
    const otherLastAt = Math.max(...others.map((start) => start.at));
    return {
      drainMs: Math.round(drained[0].ms),
      otherLags: others.map((start) => start.lag),
      firstLagMs: Math.round(Math.min(...burst.map((start) => start.lag))),
      startedBeforeOther: burst.filter((start) => start.at < otherLastAt).length,
    };
  } finally {
    await Promise.all(workers.map((worker) => worker.stop()));
  }
}

async function completed(stores: Stores): Promise<number> {
  return (await stores.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM actions WHERE status = 'COMPLETED'`)).rows[0].n;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : Math.round((sorted[middle - 1] + sorted[middle]) / 2);
}
