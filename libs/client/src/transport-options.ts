import { ClientOptions, Transport } from '@nestjs/microservices';
import { TRANSPORT_SCHEMES, TransportUrl, parseTransportUrl, redisOptionsFromUrl, rmqUrlParts } from '@punctual/contract';

/** How long a lost connection waits before the next try; transports retry for as long as the process runs. */
const RECONNECT_DELAY_MS = 1000;

export interface TransportSettings {
  /**
   * NATS only: the prefix of the subjects replies come back on (default `_INBOX`). On a NATS server
   * shared by tenants, each tenant's user may subscribe only under its own prefix, so its client must use it.
   */
  inboxPrefix?: string;
  /**
   * RabbitMQ only: whether this end declares its queue (durable) when it connects, as NestJS does by
   * default. The typed client does not: the API declares its queue, and a tenant's user need not, and
   * should not, be allowed to (whoever may declare a queue may delete it).
   */
  declareQueue?: boolean;
}

/**
 * NestJS transport options for a URL of `TRANSPORT_SCHEMES`, the same for a server
 * (`connectMicroservice`) and a `ClientProxy`, so both ends always agree. A URL's credentials
 * (`user:password@`, or a NATS token alone: `token@`) are the connection's.
 */
export function microserviceOptions(transport: TransportUrl | string, settings: TransportSettings = {}): ClientOptions {
  const parsed = typeof transport === 'string' ? parseTransportUrl(transport) : transport;
  if (!parsed) throw new Error(`Not ${TRANSPORT_SCHEMES}: ${typeof transport === 'string' ? transport : transport.url}`);
  if (parsed.kind === 'rmq') return rmqOptions(parsed.url, settings.declareQueue ?? true);
  // mqtt.js takes the URL's credentials itself; its client reconnects every second by default.
  if (parsed.kind === 'mqtt') return { transport: Transport.MQTT, options: { url: parsed.url } };
  if (parsed.kind === 'nats') {
    return {
      transport: Transport.NATS,
      options: {
        ...natsServerAndCredentials(parsed.url),
        ...(settings.inboxPrefix === undefined ? {} : { inboxPrefix: settings.inboxPrefix }),
        reconnect: true,
        maxReconnectAttempts: -1,
        reconnectTimeWait: RECONNECT_DELAY_MS,
      },
    };
  }
  const { host, port, db, username, password, tls } = redisOptionsFromUrl(parsed.url);
  return {
    transport: Transport.REDIS,
    options: { host, port, db, username, password, tls, retryAttempts: Number.MAX_SAFE_INTEGER, retryDelay: RECONNECT_DELAY_MS },
  };
}

/**
 * RabbitMQ: every pattern goes to the URL's `?queue=` (default `punctual`), a durable queue whose
 * messages outlive a broker restart, the pattern inside the message. Replies come back on
 * RabbitMQ's direct reply-to, which only the channel that sent the request can read.
 */
function rmqOptions(url: string, declareQueue: boolean): ClientOptions {
  const { connection, queue } = rmqUrlParts(url);
  return {
    transport: Transport.RMQ,
    options: {
      urls: [connection],
      queue,
      queueOptions: { durable: true },
      persistent: true,
      noAssert: !declareQueue,
      socketOptions: { reconnectTimeInSeconds: RECONNECT_DELAY_MS / 1000 },
    },
  };
}

/**
 * The NATS client ignores credentials in a server URL (and could read a password of digits as the
 * port), so they are taken out of it and passed as options: `user:pass@` a user, `token@` a token.
 */
function natsServerAndCredentials(url: string): { servers: string[]; user?: string; pass?: string; token?: string } {
  const parsed = new URL(url);
  const user = decodeURIComponent(parsed.username);
  const pass = decodeURIComponent(parsed.password);
  const servers = [`${parsed.protocol}//${parsed.host}`];
  if (!user) return { servers };
  return pass ? { servers, user, pass } : { servers, token: user };
}
