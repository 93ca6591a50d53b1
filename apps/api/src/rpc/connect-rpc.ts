import { INestApplication, Logger } from '@nestjs/common';
import { MicroserviceOptions, Transport } from '@nestjs/microservices';
import { microserviceOptions } from '@punctual/client';
import { PunctualConfig } from '@app/config';

/** On NATS, API processes share one queue group, so each message is handled by one of them. */
const NATS_QUEUE = 'punctual-api';

/**
 * Makes the API a hybrid application: besides HTTP, it serves the message patterns on
 * `RPC_TRANSPORT_URL` (by default `REDIS_URL`), unless that is `off`.
 */
export async function connectRpc(app: INestApplication): Promise<void> {
  const transport = app.get(PunctualConfig).rpc.transport;
  if (!transport) return;
  const options = microserviceOptions(transport);
  const server = options.transport === Transport.NATS ? { ...options, options: { ...options.options, queue: NATS_QUEUE } } : options;
  app.connectMicroservice<MicroserviceOptions>(server as MicroserviceOptions);
  await app.startAllMicroservices();
  Logger.log(`Serving message patterns over ${transport.kind} at ${hostOf(transport.url)}`, 'Bootstrap');
}

/** Host and port only: a URL may carry a password. */
function hostOf(url: string): string {
  const { host } = new URL(url);
  return host;
}
