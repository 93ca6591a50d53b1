import { RedisOptions } from 'ioredis';

/** What a `redis://` URL says: where Redis is and who connects, no connection behaviour. */
export type RedisUrlOptions = Pick<RedisOptions, 'host' | 'port' | 'db' | 'username' | 'password' | 'tls'>;

/** ioredis options from a `redis://user:pass@host:port/db` URL (BullMQ takes options, not URLs). */
export function redisOptionsFromUrl(url: string): RedisUrlOptions {
  const parsed = new URL(url);
  const db = parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0;
  return {
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : 6379,
    db: Number.isInteger(db) ? db : 0,
    username: parsed.username ? decodeURIComponent(parsed.username) : undefined,
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
    tls: parsed.protocol === 'rediss:' ? {} : undefined,
  };
}
