/** The benchmark's own database, Redis database and key prefix: never a developer's data. */
export const BENCH_ENV = {
  DATABASE_URL: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/punctual_bench',
  REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/2',
  QUEUE_PREFIX: 'punctual-bench',
  API_KEYS: 'bench:bench-secret-0123456789',
  ADMIN_PASSWORD: 'bench-admin-password',
  NODE_ENV: 'production',
  // Jobs in flight per worker process, the same for every system (pg-boss: its fetch batch size).
  WORKER_CONCURRENCY: '500',
  PROMOTE_INTERVAL_MS: '1000',
};
