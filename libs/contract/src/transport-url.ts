/** A NestJS microservice transport Punctual can speak, named by its URL. */
export interface TransportUrl {
  readonly kind: 'redis' | 'nats' | 'rmq' | 'mqtt';
  /** `redis://…`, `rediss://…`, `nats://…`, `amqp://…`, `amqps://…`, `mqtt://…` or `mqtts://…`, as configured. */
  readonly url: string;
}

/** What a URL of a kind this does not know is told: the schemes it takes. */
export const TRANSPORT_SCHEMES = 'a redis://, rediss://, nats://, amqp://, amqps://, mqtt:// or mqtts:// URL';

const KINDS: Readonly<Record<string, TransportUrl['kind']>> = {
  'redis:': 'redis',
  'rediss:': 'redis',
  'nats:': 'nats',
  'amqp:': 'rmq',
  'amqps:': 'rmq',
  'mqtt:': 'mqtt',
  'mqtts:': 'mqtt',
};

/** A URL of one of `TRANSPORT_SCHEMES` → transport; null for anything else. */
export function parseTransportUrl(url: string): TransportUrl | null {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    return null;
  }
  const kind = KINDS[protocol];
  return kind ? { kind, url } : null;
}

/** The RabbitMQ queue of an `amqp://` URL without `?queue=`: the one the API serves its message patterns on. */
export const DEFAULT_RMQ_QUEUE = 'punctual';

/**
 * An `amqp://user:pass@host:port/vhost?queue=name` URL → the connection URL (without `queue`) and
 * the queue. A NestJS RabbitMQ client sends every pattern to one queue, the pattern inside the message.
 */
export function rmqUrlParts(url: string): { connection: string; queue: string } {
  const parsed = new URL(url);
  const queue = parsed.searchParams.get('queue') || DEFAULT_RMQ_QUEUE;
  parsed.searchParams.delete('queue');
  return { connection: parsed.toString(), queue };
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
