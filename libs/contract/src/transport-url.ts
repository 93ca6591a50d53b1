/** A NestJS microservice transport Punctual can speak, named by its URL. */
export interface TransportUrl {
  readonly kind: 'redis' | 'nats';
  /** `redis://…`, `rediss://…` or `nats://…`, as configured. */
  readonly url: string;
}

/** `redis://`, `rediss://` or `nats://` URL → transport; null for anything else. */
export function parseTransportUrl(url: string): TransportUrl | null {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    return null;
  }
  if (protocol === 'redis:' || protocol === 'rediss:') return { kind: 'redis', url };
  if (protocol === 'nats:') return { kind: 'nats', url };
  return null;
}

/** What a `redis://` URL says: where Redis is and who connects, no connection behaviour. */
export interface RedisUrlOptions {
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  /** `{}` (TLS with the defaults) for `rediss://`. */
  tls?: Record<string, never>;
}

/** Redis client options from a `redis://user:pass@host:port/db` URL (BullMQ and the NestJS transport take options, not URLs). */
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
