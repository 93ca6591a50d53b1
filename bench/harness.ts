import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import Redis from 'ioredis';
import { Queue } from 'bullmq';
import { redisOptionsFromUrl } from '@app/config';
import { migrate } from '@app/database';
import { waitUntil } from '@app/testing';
import { BENCH_NOOP } from './apps/noop-action-type';
import { BenchClient } from './bench-client';
import { BENCH_ENV } from './bench-env';
import { track } from './child-processes';

const ROOT = join(__dirname, '..');

export const BENCH_KEY = { keyId: 'bench', secret: 'bench-secret-0123456789' };

/**
 * A built API or worker process with the benchmark's no-op action type (`nest build bench`).
 * It logs at `log` only until ready, then the benchmark reads nothing more from it.
 */
export class BenchProcess {
  private readonly child: ChildProcess;
  private output = '';

  constructor(app: 'api' | 'worker', env: Record<string, string> = {}) {
    const flags = process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? []; // e.g. --cpu-prof
    this.child = track(
      spawn(process.execPath, [...flags, join(ROOT, 'dist', 'bench', 'apps', `${app}.js`)], {
        cwd: ROOT,
        env: { ...process.env, ...BENCH_ENV, LOG_LEVEL: 'warn', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    const keep = (chunk: Buffer) => (this.output = (this.output + chunk.toString()).slice(-20_000));
    this.child.stdout!.on('data', keep);
    this.child.stderr!.on('data', keep);
  }

  /** Waits until the process answers `probe`, or fails with its output. */
  async ready(probe: () => Promise<boolean>): Promise<this> {
    await waitUntil(
      'benchmark process ready',
      async () => {
        if (this.child.exitCode !== null) throw new Error(`benchmark process exited:\n${this.output}`);
        return probe().catch(() => false);
      },
      30_000,
      100,
    );
    return this;
  }

  get pid(): number {
    return this.child.pid!;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}

/** An API process on `port`; `env` adds to the benchmark's settings (the observability workload turns metrics and logs on and off). */
export async function startApi(port: number, env: Record<string, string> = {}): Promise<{ api: BenchProcess; client: BenchClient }> {
  const client = new BenchClient(port, BENCH_KEY);
  const api = await new BenchProcess('api', { ...env, PORT: String(port) }).ready(async () => (await client.get('/health')).status === 200);
  return { api, client };
}

/** Worker processes, ready once each consumes the benchmark's queue. */
export async function startWorkers(count: number, env: Record<string, string> = {}): Promise<BenchProcess[]> {
  const queue = new Queue(BENCH_NOOP.type, { connection: redisOptionsFromUrl(BENCH_ENV.REDIS_URL), prefix: BENCH_ENV.QUEUE_PREFIX });
  try {
    const before = await queue.getWorkersCount();
    const workers = Array.from({ length: count }, () => new BenchProcess('worker', env));
    await Promise.all(workers.map((w) => w.ready(async () => (await queue.getWorkersCount()) >= before + count)));
    return workers;
  } finally {
    await queue.close();
  }
}

/** The benchmark's Postgres and Redis connections, and a clean slate between workloads. */
export class Stores {
  private constructor(
    readonly db: Client,
    readonly redis: Redis,
  ) {}

  static async open(): Promise<Stores> {
    await migrate(BENCH_ENV.DATABASE_URL);
    const db = new Client({ connectionString: BENCH_ENV.DATABASE_URL });
    await db.connect();
    return new Stores(db, new Redis(BENCH_ENV.REDIS_URL));
  }

  async reset(): Promise<void> {
    await this.db.query(`TRUNCATE actions, action_history, idempotency_keys, accepted_nonces, webhook_subscriptions, webhook_events, webhook_deliveries`);
    await this.db.query(`UPDATE scheduler_state SET promoted_until = '-infinity'`);
    await this.redis.flushdb();
  }

  async close(): Promise<void> {
    await this.db.end();
    this.redis.disconnect();
  }
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Busy and total CPU ticks of the whole machine, from /proc/stat. */
function machineTicks(): { busy: number; total: number } {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const ticks = fields.map(Number);
  const idle = ticks[3] + ticks[4];
  const total = ticks.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/** CPU time (user + system) the processes have used so far, in ms; /proc counts in ticks of 10 ms (CLK_TCK 100). */
export function processCpuMs(pids: readonly number[]): number {
  return pids.reduce((total, pid) => {
    // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return total + (Number(fields[11]) + Number(fields[12])) * 10;
  }, 0);
}

/** Runs `work` and reports the machine's CPU use meanwhile (all cores, all processes: Postgres and Redis too). */
export async function withMachineCpu<T>(work: () => Promise<T>): Promise<{ result: T; machineCpuPercent: number }> {
  const before = machineTicks();
  const result = await work();
  const after = machineTicks();
  return { result, machineCpuPercent: Math.round((100 * (after.busy - before.busy)) / (after.total - before.total)) };
}
