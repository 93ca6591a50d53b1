import { BaselineWorkers } from '../baselines/baseline-process';
import { PG_BOSS_SETTINGS, producePgBossJobs, resetPgBoss } from '../baselines/pg-boss';
import { obliterateRawJobs, produceRawJobs } from '../baselines/raw-bullmq';
import { BENCH_NOOP } from '../apps/noop-action-type';
import { BenchClient } from '../bench-client';
import { BENCH_ENV } from '../bench-env';
import { BenchProcess, startWorkers, Stores } from '../harness';

/** Workers of one scheduler, running: schedule no-op jobs, then watch them run. */
export interface RunningSystem {
  schedule(dueTimes: number[]): Promise<void>;
  /** How many of the scheduled jobs have run. */
  finished(): Promise<number>;
  /** Processing start − due time of each job that ran, in ms. */
  lags(): Promise<number[]>;
  /** Forgets the jobs run so far (the warm-up), so `finished` and `lags` count from zero. */
  forget(): Promise<void>;
  stop(): Promise<void>;
  /** The worker processes, when the system reports them (Punctual's own). */
  pids?(): number[];
}

/** A scheduler under test: a clean slate, then N worker processes. */
export interface System {
  name: string;
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

/**
 * Punctual: the real API (already running) and N real worker processes, with `options.env` added
 * to their settings; BENCH_NOOP actions unless `options.actionAt` says otherwise.
 */
export function punctual(client: BenchClient, stores: Stores, options: { name?: string; actionAt?: ActionAt; env?: Record<string, string> } = {}): System {
  const { name = 'Punctual', actionAt = noopAction, env = {} } = options;
  return {
    name,
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
        pids: () => workers.map((w) => w.pid),
      };
    },
  };
}

function baseline(name: string, script: string, produce: (due: number[]) => Promise<void>, purge: () => Promise<void>, settings?: object): System {
  return {
    name,
    settings,
    async start(count) {
      await purge();
      const workers = await BaselineWorkers.start(script, count, BENCH_ENV);
      return {
        schedule: produce,
        finished: async () => workers.lags.length,
        lags: async () => workers.lags,
        forget: async () => void workers.lags.splice(0),
        stop: () => workers.stop(),
      };
    },
  };
}

/** BullMQ alone: the ceiling, no Postgres. */
export const rawBullmq = baseline(
  'raw BullMQ',
  'raw-bullmq.ts',
  (due) => produceRawJobs(BENCH_ENV.REDIS_URL, due),
  () => obliterateRawJobs(BENCH_ENV.REDIS_URL),
  { concurrency: Number(BENCH_ENV.WORKER_CONCURRENCY) },
);

/** pg-boss: a Postgres-only queue. */
export const pgBoss = baseline(
  'pg-boss',
  'pg-boss.ts',
  (due) => producePgBossJobs(BENCH_ENV.DATABASE_URL, due),
  () => resetPgBoss(BENCH_ENV.DATABASE_URL),
  PG_BOSS_SETTINGS,
);
