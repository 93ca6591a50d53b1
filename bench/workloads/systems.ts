import { waitUntil } from '@app/testing';
import { BaselineWorkers } from '../baselines/baseline-process';
import { BULLMQ_PG_SETTINGS, produceBullmqPgJobs, resetBullmqPg } from '../baselines/bullmq-postgres';
import { completedGraphileJobs, GRAPHILE_SETTINGS, produceGraphileJobs, resetGraphile } from '../baselines/graphile-worker';
import { completedPgBossJobs, PG_BOSS_SETTINGS, producePgBossJobs, resetPgBoss } from '../baselines/pg-boss';
import { obliterateRawJobs, produceRawJobs } from '../baselines/raw-bullmq';
import { BENCH_NOOP } from '../apps/noop-action-type';
import { BenchClient } from '../bench-client';
import { BENCH_ENV, BULLMQ_PG_DATABASE_URL, databaseOf } from '../bench-env';
import { BenchProcess, startWorkers, Stores } from '../harness';
import { ProcessGroups } from '../proc-cpu';

/** Where a system's CPU time goes: its worker processes, its API process (Punctual's), and the store servers working for it. */
export type SystemProcesses = ProcessGroups<'workers' | 'api' | 'postgres' | 'redis'>;

/** Workers of one scheduler, running: schedule no-op jobs, then watch them run. */
export interface RunningSystem {
  schedule(dueTimes: number[]): Promise<void>;
  /** How many of the scheduled jobs have run and been recorded done. */
  finished(): Promise<number>;
  /** Processing start − due time of each job that ran, in ms. */
  lags(): Promise<number[]>;
  /** Forgets the jobs run so far (the warm-up), so `finished` and `lags` count from zero. */
  forget(): Promise<void>;
  stop(): Promise<void>;
  /** The processes it runs on now. */
  processes(): Promise<SystemProcesses>;
}

/** A scheduler under test: a clean slate, then N worker processes. */
export interface System {
  name: string;
  /** Whether it runs on Redis, whose `hz` the firing workload varies. */
  usesRedis: boolean;
  settings?: object;
  start(workers: number): Promise<RunningSystem>;
}

/** A create body due at `due`. */
export type ActionAt = (due: number) => { action: string; executionTime: number; data: object };

const noopAction: ActionAt = (due) => ({ action: BENCH_NOOP.type, executionTime: due, data: {} });

/** Creates actions (BENCH_NOOP unless told) due at the given times through the batch route, a few requests at a time. */
export async function createNoopActions(client: BenchClient, dueTimes: number[], actionAt: ActionAt = noopAction): Promise<void> {
  const batches: number[][] = [];
  for (let from = 0; from < dueTimes.length; from += 1000) batches.push(dueTimes.slice(from, from + 1000));
  for (let next = 0; next < batches.length; next += 4) {
    await Promise.all(
      batches.slice(next, next + 4).map(async (batch) => {
        const items = batch.map(actionAt);
        const response = await client.post('/actions/batch', { items });
        if (response.status !== 201) throw new Error(`batch create answered ${response.status}: ${JSON.stringify(response.body)}`);
      }),
    );
  }
}

/** The store servers' processes working for Punctual: its database's backends, Redis. */
export const punctualServerProcesses = (stores: Stores) => stores.serverProcesses([databaseOf(BENCH_ENV.DATABASE_URL)], true);

/**
 * Punctual: the real API (already running; its process counted in the CPU time when `apiPid` is
 * given) and N real worker processes, with `options.env` added to their settings; BENCH_NOOP
 * actions unless `options.actionAt` says otherwise.
 */
export function punctual(
  client: BenchClient,
  stores: Stores,
  options: { name?: string; actionAt?: ActionAt; env?: Record<string, string>; apiPid?: number } = {},
): System {
  const { name = 'Punctual', actionAt = noopAction, env = {}, apiPid } = options;
  return {
    name,
    usesRedis: true,
    settings: { workerConcurrency: Number(BENCH_ENV.WORKER_CONCURRENCY) },
    async start(count) {
      await stores.reset();
      const workers: BenchProcess[] = await startWorkers(count, env);
      return {
        schedule: (dueTimes) => createNoopActions(client, dueTimes, actionAt),
        async finished() {
          return (await stores.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM actions WHERE status = 'COMPLETED'`)).rows[0].n;
        },
        // The claim (PENDING → IN_PROGRESS) is written just before the fulfillment starts.
        async lags() {
          const { rows } = await stores.db.query<{ lag: number }>(
            `SELECT (extract(epoch FROM h.at - a.execution_time) * 1000)::float AS lag
             FROM action_history h JOIN actions a ON a.id = h.action_id WHERE h.to_status = 'IN_PROGRESS'`,
          );
          return rows.map((r) => r.lag);
        },
        forget: async () => void (await stores.db.query(`TRUNCATE actions, action_history, idempotency_keys`)),
        stop: async () => void (await Promise.all(workers.map((w) => w.stop()))),
        processes: async () => ({
          workers: workers.map((w) => w.pid),
          api: apiPid === undefined ? [] : [apiPid],
          ...(await punctualServerProcesses(stores)),
        }),
      };
    },
  };
}

/** A queue library run as N worker processes of `script` (in bench/baselines/), its jobs made by this process. */
interface Baseline {
  name: string;
  script: string;
  produce: (dueTimes: number[]) => Promise<void>;
  /** Empties its store before its workers start. */
  purge: () => Promise<void>;
  settings: object;
  /** Where it keeps its jobs: Postgres databases, Redis. */
  databases: string[];
  usesRedis: boolean;
  /** Added to its worker processes' environment. */
  env?: Record<string, string>;
  /**
   * How many jobs its store has recorded done, read through the benchmark's connection to its
   * database, for a library whose workers do not learn when their completions commit; otherwise
   * its workers count them.
   */
  completedInStore?: (db: Stores['db']) => Promise<number>;
}

function baseline(stores: Stores, { name, script, produce, purge, settings, databases, usesRedis, env, completedInStore }: Baseline): System {
  return {
    name,
    usesRedis,
    settings,
    async start(count) {
      await purge();
      const workers = await BaselineWorkers.start(script, count, { ...BENCH_ENV, ...env });
      // Those completed before `forget`, the warm-up.
      let forgotten = 0;
      const finished = async () => (completedInStore ? (await completedInStore(stores.db)) - forgotten : workers.completed);
      // A worker reports a job's lag up to 50 ms after it started it: its store may show it done first.
      const lagOfEachFinished = async () => {
        const done = await finished();
        await waitUntil(`${name}: the lag of every job done`, () => workers.lags.length >= done, 10_000, 10);
        return done;
      };
      return {
        schedule: produce,
        finished,
        async lags() {
          await lagOfEachFinished();
          return workers.lags;
        },
        async forget() {
          const done = await lagOfEachFinished();
          workers.forget();
          forgotten += done;
        },
        stop: () => workers.stop(),
        processes: async () => ({ workers: workers.pids, api: [], ...(await stores.serverProcesses(databases, usesRedis)) }),
      };
    },
  };
}

/** BullMQ alone: the ceiling, no Postgres. */
export const rawBullmq = (stores: Stores): System =>
  baseline(stores, {
    name: 'raw BullMQ',
    script: 'raw-bullmq.ts',
    produce: (due) => produceRawJobs(BENCH_ENV.REDIS_URL, due),
    purge: () => obliterateRawJobs(BENCH_ENV.REDIS_URL),
    settings: { concurrency: Number(BENCH_ENV.WORKER_CONCURRENCY) },
    databases: [],
    usesRedis: true,
  });

/** pg-boss: a Postgres-only queue, in a schema of the benchmark's database. */
export const pgBoss = (stores: Stores): System =>
  baseline(stores, {
    name: 'pg-boss',
    script: 'pg-boss.ts',
    produce: (due) => producePgBossJobs(BENCH_ENV.DATABASE_URL, due),
    purge: () => resetPgBoss(BENCH_ENV.DATABASE_URL),
    settings: PG_BOSS_SETTINGS,
    databases: [databaseOf(BENCH_ENV.DATABASE_URL)],
    usesRedis: false,
    completedInStore: completedPgBossJobs,
  });

/** Graphile Worker: a Postgres-only queue, in a schema of the benchmark's database. */
export const graphileWorker = (stores: Stores): System =>
  baseline(stores, {
    name: 'Graphile Worker',
    script: 'graphile-worker.ts',
    produce: (due) => produceGraphileJobs(BENCH_ENV.DATABASE_URL, due),
    purge: () => resetGraphile(BENCH_ENV.DATABASE_URL),
    settings: GRAPHILE_SETTINGS,
    databases: [databaseOf(BENCH_ENV.DATABASE_URL)],
    usesRedis: false,
    completedInStore: completedGraphileJobs,
  });

/** BullMQ 6 on Postgres, in a database of its own. */
export const bullmqOnPostgres = (stores: Stores): System =>
  baseline(stores, {
    name: 'BullMQ on Postgres',
    script: 'bullmq-postgres.ts',
    produce: (due) => produceBullmqPgJobs(BULLMQ_PG_DATABASE_URL, due),
    purge: () => resetBullmqPg(BULLMQ_PG_DATABASE_URL),
    settings: BULLMQ_PG_SETTINGS,
    databases: [databaseOf(BULLMQ_PG_DATABASE_URL)],
    usesRedis: false,
    env: { DATABASE_URL: BULLMQ_PG_DATABASE_URL },
  });
