/** The soak's own database, Redis and key: never a developer's data, nor the benchmark's or the tests'. */
export const SOAK_DATABASE_URL = process.env.SOAK_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/punctual_soak';
/** With `--redis single`: a database of the shared Redis server that nothing else uses. */
export const SOAK_SINGLE_REDIS_URL = process.env.SOAK_REDIS_URL ?? 'redis://127.0.0.1:6379/9';
export const SOAK_QUEUE_PREFIX = 'punctual-soak';
export const SOAK_KEY = { keyId: 'soak', secret: 'soak-secret-0123456789' };
/** With `--redis cluster` (the default): a cluster of its own, six nodes from this port (scripts/redis-cluster.sh). */
export const SOAK_CLUSTER = { firstPort: 7100, dir: '/tmp/punctual-soak-cluster' };

/**
 * What every API and worker of the soak runs with, besides where Postgres and Redis are. Leases,
 * sweeps and shutdowns are short so that what the chaos breaks heals within the run.
 */
export const SOAK_APP_ENV = {
  NODE_ENV: 'production',
  QUEUE_PREFIX: SOAK_QUEUE_PREFIX,
  API_KEYS: `${SOAK_KEY.keyId}:${SOAK_KEY.secret}`,
  ADMIN_PASSWORD: 'soak-admin-password',
  RPC_TRANSPORT_URL: 'off',
  LOG_LEVEL: 'warn',
  OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
  TENANT_CREATE_RATE: '1000000000',
  TENANT_MAX_ACTIVE_ACTIONS: '1000000000',
  // Five processes share a Postgres that allows 100 connections, with other users.
  DATABASE_POOL_SIZE: '8',
  WORKER_CONCURRENCY: '100',
  CLAIM_LEASE_MS: '5000',
  OVERDUE_GRACE_MS: '3000',
  PROMOTE_INTERVAL_MS: '500',
  SHUTDOWN_TIMEOUT_MS: '5000',
};
