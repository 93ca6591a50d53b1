import { AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { Client } from 'pg';
import Redis from 'ioredis';
import { Queue } from 'bullmq';
import { redisOptionsFromUrl } from '@punctual/contract';
import { queuePrefixOf } from '@app/config';
import { migrate } from '@app/database';
import { BENCH_NOOP } from './apps/noop-action-type';
import { BenchClient } from './bench-client';
import { BENCH_ENV } from './bench-env';
import { BuiltProcess } from './child-processes';
import { parentPid, processName, ProcessGroups } from './proc-cpu';

export const BENCH_KEY = { keyId: 'bench', secret: 'bench-secret-0123456789' };
/** A key of another tenant (`bench-other`); BENCH_KEY's tenant is `default`. */
export const BENCH_OTHER_TENANT_KEY = { keyId: 'bench-other', secret: 'bench-other-secret-0123' };

/**
 * A built API or worker process with the benchmark's no-op action type (`nest build bench`).
 * It logs at `warn`, and the benchmark reads nothing from it once it is ready.
 */
export class BenchProcess extends BuiltProcess {
  constructor(app: 'api' | 'worker', env: Record<string, string> = {}) {
    super(join('dist', 'bench', 'apps', `${app}.js`), { ...BENCH_ENV, LOG_LEVEL: 'warn', ...env });
  }
}

/** A TCP port nothing listens on now, for an API of this run: another run on this machine may hold any fixed one. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** An API process on `port`; `env` adds to the benchmark's settings (the observability workload turns metrics and logs on and off). */
export async function startApi(port: number, env: Record<string, string> = {}): Promise<{ api: BenchProcess; client: BenchClient }> {
  const client = new BenchClient(port, BENCH_KEY);
  const api = await new BenchProcess('api', { ...env, PORT: String(port) }).ready(async () => (await client.get('/health')).status === 200);
  return { api, client };
}

/** Worker processes, ready once each consumes the benchmark's queue. */
export async function startWorkers(count: number, env: Record<string, string> = {}): Promise<BenchProcess[]> {
  const queue = new Queue(BENCH_NOOP.type, {
    connection: redisOptionsFromUrl(BENCH_ENV.REDIS_URL),
    prefix: queuePrefixOf(BENCH_ENV.QUEUE_PREFIX, BENCH_NOOP.type),
  });
  try {
    const before = await queue.getWorkersCount();
    const workers = Array.from({ length: count }, () => new BenchProcess('worker', env));
    await Promise.all(workers.map((w) => w.ready(async () => (await queue.getWorkersCount()) >= before + count)));
    return workers;
  } finally {
    await queue.close();
  }
}

interface VisibleServers {
  postgres: boolean;
  redisPid: number | null;
}

/**
 * Whether this machine's /proc shows the Postgres server (this connection's backend and its parent)
 * and Redis's process: not when they run in containers, whose process ids are their own.
 */
async function visibleServers(db: Client, redis: Redis): Promise<VisibleServers> {
  const { rows } = await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const backend = rows[0].pid;
  const postmaster = parentPid(backend);
  const redisPid = Number(/process_id:(\d+)/.exec(await redis.info('server'))![1]);
  return {
    postgres: processName(backend) === 'postgres' && postmaster !== undefined && processName(postmaster) === 'postgres',
    redisPid: processName(redisPid) === 'redis-server' ? redisPid : null,
  };
}

/** The benchmark's Postgres and Redis connections, and a clean slate between workloads. */
export class Stores {
  private constructor(
    readonly db: Client,
    readonly redis: Redis,
    private readonly seen: VisibleServers,
  ) {}

  static async open(): Promise<Stores> {
    await migrate(BENCH_ENV.DATABASE_URL);
    const db = new Client({ connectionString: BENCH_ENV.DATABASE_URL });
    await db.connect();
    const redis = new Redis(BENCH_ENV.REDIS_URL);
    return new Stores(db, redis, await visibleServers(db, redis));
  }

  async reset(): Promise<void> {
    await this.db.query(`TRUNCATE actions, action_history, idempotency_keys, accepted_nonces, webhook_subscriptions, webhook_events, webhook_deliveries`);
    await this.db.query(`UPDATE scheduler_state SET promoted_until = '-infinity'`);
    await this.redis.flushdb();
  }

  /**
   * The servers' processes working for a system that keeps its data in `databases` (and in Redis
   * when `redis`), for their CPU time: Postgres's backends connected to those databases, but the
   * benchmark's own connection, with the server's background processes (WAL writer, checkpointer…),
   * which work for every database; Redis's one process, which serves every client of that server.
   * Empty for a store the system does not use; null for a server /proc does not show.
   */
  async serverProcesses(databases: readonly string[], redis: boolean): Promise<ProcessGroups<'postgres' | 'redis'>> {
    return {
      postgres: databases.length === 0 ? [] : this.seen.postgres ? await this.postgresProcesses(databases) : null,
      redis: !redis ? [] : this.seen.redisPid === null ? null : [this.seen.redisPid],
    };
  }

  private async postgresProcesses(databases: readonly string[]): Promise<number[]> {
    const { rows } = await this.db.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND (datname = ANY($1) OR datname IS NULL)`,
      [databases],
    );
    return rows.map((row) => row.pid);
  }

  async close(): Promise<void> {
    await this.db.end();
    this.redis.disconnect();
  }
}
