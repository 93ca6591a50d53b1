import { envSchema } from '../libs/config/src/env.schema';

// Every test process talks to its own database and Redis database, never a developer's data, and
// sees only the settings below; every other variable keeps its default. Nothing comes from the
// shell, and NODE_ENV=test keeps the apps (and the processes specs start) from reading `.env`.
for (const name of Object.keys(envSchema.shape)) delete process.env[name];
process.env.NODE_ENV = 'test';
process.env.DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/punctual_test';
process.env.REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/1';
process.env.QUEUE_PREFIX = 'punctual-test';
process.env.API_KEYS = 'test-key:test-secret-0123456789,rotated-key:rotated-secret-9876543210,other-tenant-key:other-tenant-secret-0123:team-b';
process.env.ADMIN_USER = 'admin';
process.env.ADMIN_PASSWORD = 'admin-password';
process.env.LOG_LEVEL = 'warn';
// Redis pub/sub and NATS reach every process on this machine whatever its database, so an API that
// served message patterns could answer another test run's messages: only the specs about them turn them on.
process.env.RPC_TRANSPORT_URL = 'off';
// Specs create thousands of actions in seconds; the quota specs set their tenants' own limits.
process.env.TENANT_CREATE_RATE = '1000000';
process.env.BACKOFF_BASE_MS = '50';
process.env.BACKOFF_MAX_MS = '400';
// The specs' receivers listen on this machine; specs about refused destinations override it.
process.env.OUTBOUND_ALLOWED_HOSTS = '127.0.0.1,localhost';
// Specs start several workers at once: each takes a free port for its metrics and health server.
process.env.WORKER_HTTP_PORT = '0';
// Subscription secrets are encrypted with this key; webhook retries come quickly.
process.env.SECRET_KEY = Buffer.alloc(32, 7).toString('base64');
process.env.WEBHOOK_BACKOFF_DELAYS_MS = '100,200';
