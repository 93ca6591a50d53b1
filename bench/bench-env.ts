const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/2';

/** The benchmark's own database, Redis database and key prefix: never a developer's data. */
export const BENCH_ENV = {
  DATABASE_URL: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/punctual_bench',
  REDIS_URL,
  // Workers are counted by their Redis client names, which every database of a server shares: a
  // prefix of its own for each database keeps runs on other databases out of the count.
  QUEUE_PREFIX: `punctual-bench-${new URL(REDIS_URL).pathname.slice(1) || '0'}`,
  // The second key is another tenant's, for the fairness workload.
  API_KEYS: 'bench:bench-secret-0123456789,bench-other:bench-other-secret-0123:bench-other',
  ADMIN_PASSWORD: 'bench-admin-password',
  NODE_ENV: 'production',
  // Jobs in flight per worker process, the same for every system (pg-boss: its fetch loops × their batch size; Graphile Worker: its concurrentJobs and local queue).
  WORKER_CONCURRENCY: '500',
  PROMOTE_INTERVAL_MS: '1000',
  // The ingest workload stores far-future HTTP_REQUESTs to a local port that is never called.
  OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
  // Encrypts the webhook subscription secrets of the webhooks workload (a key for this benchmark only).
  SECRET_KEY: Buffer.alloc(32, 0x62).toString('base64'),
  // The workloads create far more, far faster, than a tenant's default quotas allow; they measure the check, not its refusals.
  TENANT_CREATE_RATE: '1000000000',
  TENANT_MAX_ACTIVE_ACTIONS: '1000000000',
  // Several workers run on this one machine: each takes a free port for its metrics and health.
  WORKER_HTTP_PORT: '0',
};

/** The database a Postgres URL names. */
export const databaseOf = (url: string): string => decodeURIComponent(new URL(url).pathname.slice(1));

/** BullMQ on Postgres keeps its jobs in a database of its own beside the benchmark's: `<bench database>_bullmq_pg`. */
export const BULLMQ_PG_DATABASE_URL = (() => {
  const url = new URL(BENCH_ENV.DATABASE_URL);
  url.pathname = `/${encodeURIComponent(`${databaseOf(BENCH_ENV.DATABASE_URL)}_bullmq_pg`)}`;
  return url.toString();
})();
