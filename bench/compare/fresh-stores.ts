import { Client } from 'pg';
import Redis from 'ioredis';
import { BENCH_ENV } from '../bench-env';

/**
 * A new deployment's stores: drops the benchmark's database and empties its Redis database. The
 * next tree's `Stores.open()` creates the database again with that tree's own migrations, so its
 * tables start empty and without planner statistics.
 */
export async function dropBenchStores(): Promise<void> {
  const name = decodeURIComponent(new URL(BENCH_ENV.DATABASE_URL).pathname.slice(1));
  const admin = new URL(BENCH_ENV.DATABASE_URL);
  admin.pathname = '/postgres';
  const db = new Client({ connectionString: admin.toString() });
  await db.connect();
  try {
    await db.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`);
  } finally {
    await db.end();
  }
  const redis = new Redis(BENCH_ENV.REDIS_URL);
  try {
    await redis.flushdb();
  } finally {
    redis.disconnect();
  }
}
