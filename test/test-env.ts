// Every test process talks to its own database and Redis database, never a developer's data.
process.env.DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/punctual_test';
process.env.REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/1';
process.env.QUEUE_PREFIX = 'punctual-test';
process.env.API_KEYS = 'test-key:test-secret-0123456789,rotated-key:rotated-secret-9876543210';
process.env.ADMIN_USER = 'admin';
process.env.ADMIN_PASSWORD = 'admin-password';
process.env.LOG_LEVEL = 'warn';
process.env.BACKOFF_BASE_MS = '50';
process.env.BACKOFF_MAX_MS = '400';
