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
  // The ingest workload stores far-future HTTP_REQUESTs to a local port that is never called.
  OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
  // Encrypts the webhook subscription secrets of the webhooks workload (a key for this benchmark only).
  WEBHOOK_SECRET_KEY: Buffer.alloc(32, 0x62).toString('base64'),
  // Several workers run on this one machine: each takes a free port for its metrics and health.
  WORKER_HTTP_PORT: '0',
};
