import { INestApplication, Logger } from '@nestjs/common';
import { MicroserviceOptions, NatsOptions, RedisOptions, Transport } from '@nestjs/microservices';
import { microserviceOptions } from '@punctual/client';
import { TransportUrl } from '@punctual/contract';
import { PunctualConfig } from '@app/config';
import { TenantsRepository } from '@app/database';
import { PunctualMetrics } from '@app/observability';
import { KeyRegistry } from '@app/signature';
import { AckAfterReplyRmqServer } from './ack-after-reply-rmq-server';
import { OnceOnlyRedisServer } from './once-only-redis-server';
import { judgeRpcTransport, tenantsWithKeys } from './rpc-trust';
import { TenantInboxNatsServer } from './tenant-inbox-nats-server';

/** The queue group of the API processes on NATS. */
const NATS_QUEUE = 'punctual-api';
/** The requests a process takes from the RabbitMQ queue before it has answered them. */
const RMQ_PREFETCH = 32;

/**
 * Makes the API a hybrid application: besides HTTP, it serves the message patterns on
 * `RPC_TRANSPORT_URL` (by default Punctual's own Redis, while one tenant holds keys), unless that is `off`.
 */
export async function connectRpc(app: INestApplication): Promise<void> {
  const config = app.get(PunctualConfig);
  const transport = config.rpc.transport;
  if (!transport) return;
  const serving = await judgeRpcTransport(config.rpc, () => tenantsWithKeys(config, app.get(TenantsRepository, { strict: false })));
  if (!serving.serve) {
    Logger.warn(serving.reason, 'Bootstrap');
    return;
  }
  if (serving.warning) Logger.warn(serving.warning, 'Bootstrap');
  app.connectMicroservice<MicroserviceOptions>(
    rpcServer(config, transport, app.get(KeyRegistry, { strict: false }), app.get(PunctualMetrics, { strict: false })),
  );
  await app.startAllMicroservices();
  Logger.log(`Serving message patterns over ${transport.kind} at ${hostOf(transport.url)}${replyRule(config, transport)}`, 'Bootstrap');
}

/**
 * Each message is handled by one API process, however many serve: on NATS they share one queue
 * group, which delivers each message to one member; on RabbitMQ they consume one durable queue,
 * which does the same (AckAfterReplyRmqServer); on Redis, whose pub/sub delivers it to every
 * subscriber, the processes claim it (OnceOnlyRedisServer).
 */
function rpcServer(config: PunctualConfig, transport: TransportUrl, keys: KeyRegistry, metrics: PunctualMetrics): MicroserviceOptions {
  const options = microserviceOptions(transport);
  if (options.transport === Transport.RMQ) {
    return { strategy: new AckAfterReplyRmqServer({ ...options.options, prefetchCount: RMQ_PREFETCH }) };
  }
  if (options.transport === Transport.NATS) {
    const nats = { ...options.options, queue: NATS_QUEUE } as Required<NatsOptions>['options'];
    const inboxPrefix = config.rpc.tenantInboxPrefix;
    if (!inboxPrefix) return { ...options, options: nats };
    const pinned = config.rpc.tenantInboxAlways ? () => true : () => keys.sharedByTenants();
    return { strategy: new TenantInboxNatsServer(nats, inboxPrefix, pinned, metrics) };
  }
  // Unset, RPC_TRANSPORT_URL is Punctual's own Redis: on a cluster, the whole cluster.
  const clusterNodes = transport.url === config.redis.url ? config.redis.clusterNodes : null;
  return {
    strategy: new OnceOnlyRedisServer(options.options as Required<RedisOptions>['options'], { keyPrefix: config.redis.queuePrefix, clusterNodes }),
  };
}

/** Where replies go, said at boot so that a client whose calls time out can be told why. */
function replyRule(config: PunctualConfig, transport: TransportUrl): string {
  if (transport.kind === 'rmq') return ', answering only on direct reply-to';
  if (transport.kind !== 'nats') return '';
  const prefix = config.rpc.tenantInboxPrefix;
  if (!prefix) return ', answering into any reply subject (RPC_TENANT_INBOX_PREFIX=off)';
  const when = config.rpc.tenantInboxAlways ? '' : ' while keys of two or more tenants are valid';
  return `, answering each tenant only under ${prefix}.${when}`;
}

/** Host and port only: a URL may carry a password. */
function hostOf(url: string): string {
  const { host } = new URL(url);
  return host;
}
