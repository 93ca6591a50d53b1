import { ClientOptions, Transport } from '@nestjs/microservices';
import { TransportUrl, parseTransportUrl, redisOptionsFromUrl } from '@punctual/contract';

/** How long a lost connection waits before the next try; transports retry for as long as the process runs. */
const RECONNECT_DELAY_MS = 1000;

/**
 * NestJS transport options for a `redis://`, `rediss://` or `nats://` URL, the same for a
 * server (`connectMicroservice`) and a `ClientProxy`, so both ends always agree.
 */
export function microserviceOptions(transport: TransportUrl | string): ClientOptions {
  const parsed = typeof transport === 'string' ? parseTransportUrl(transport) : transport;
  if (!parsed) throw new Error(`Not a redis://, rediss:// or nats:// URL: ${typeof transport === 'string' ? transport : transport.url}`);
  if (parsed.kind === 'nats') {
    return {
      transport: Transport.NATS,
      options: { servers: [parsed.url], reconnect: true, maxReconnectAttempts: -1, reconnectTimeWait: RECONNECT_DELAY_MS },
    };
  }
  const { host, port, db, username, password, tls } = redisOptionsFromUrl(parsed.url);
  return {
    transport: Transport.REDIS,
    options: { host, port, db, username, password, tls, retryAttempts: Number.MAX_SAFE_INTEGER, retryDelay: RECONNECT_DELAY_MS },
  };
}
