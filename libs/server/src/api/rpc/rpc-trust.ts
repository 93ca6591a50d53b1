import { PunctualConfig } from '@app/config';
import { TenantsRepository } from '@app/database';

/** Where the docs explain the transport setup that keeps tenants apart. */
const SETUP_DOCS = 'docs/operations.md, "RPC for several tenants"';

/** Whether the API serves its message patterns, and what it says at boot about the transport's trust. */
export type RpcServing = { serve: true; warning: string | null } | { serve: false; reason: string };

/**
 * A Redis transport is one trust domain: every client of it reads every message, answers first,
 * claims requests away and changes Punctual's keys. So Punctual's own Redis, taken when
 * RPC_TRANSPORT_URL is unset, serves RPC only while one tenant holds keys (any more could only call
 * through it by sharing that Redis); a Redis named on purpose is served, with a warning once tenants
 * share it. NATS with a user per tenant keeps them apart; Punctual cannot see a server's users, so
 * it takes NATS as configured, with a warning when it would answer into any tenant's inbox. RabbitMQ
 * with a user per tenant (no right to read or declare Punctual's queue) keeps them apart too, and is
 * taken as configured: replies go only to direct reply-to, which no other connection reads.
 */
export async function judgeRpcTransport(rpc: PunctualConfig['rpc'], countTenantsWithKeys: () => Promise<number>): Promise<RpcServing> {
  if (rpc.transport === null || rpc.transport.kind === 'rmq' || (rpc.transport.kind === 'nats' && rpc.tenantInboxPrefix !== null)) {
    return { serve: true, warning: null };
  }
  const tenantsWithKeys = await countTenantsWithKeys();
  if (tenantsWithKeys < 2) return { serve: true, warning: null };
  if (rpc.transport.kind === 'nats') {
    return {
      serve: true,
      warning:
        `RPC_TENANT_INBOX_PREFIX is off, and ${tenantsWithKeys} tenants hold API keys: Punctual answers into whatever reply subject a ` +
        `request names, so a tenant can have replies delivered into another's inbox. Set it to the tenants' inbox prefix (${SETUP_DOCS}).`,
    };
  }
  if (rpc.isQueueRedisByDefault) {
    return {
      serve: false,
      reason:
        `Not serving message patterns: RPC_TRANSPORT_URL is unset and ${tenantsWithKeys} tenants hold API keys, and on Punctual's own Redis ` +
        `every client could read, answer and suppress every tenant's messages and change Punctual's state. Set RPC_TRANSPORT_URL ` +
        `to a NATS server with a user per tenant (${SETUP_DOCS}), or to off to say RPC is not wanted.`,
    };
  }
  return {
    serve: true,
    warning:
      `RPC_TRANSPORT_URL names a Redis, and ${tenantsWithKeys} tenants hold API keys: a Redis transport is one trust domain, where every ` +
      `client reads, answers and suppresses every tenant's messages. Give each tenant only what its own NATS user may do instead (${SETUP_DOCS}).`,
  };
}

/** How many tenants can sign a request: those of `API_KEYS` and of the keys made at run time and not revoked. */
export async function tenantsWithKeys(config: PunctualConfig, tenants: TenantsRepository): Promise<number> {
  const runtime = (await tenants.activeKeys()).map((key) => key.tenantId);
  return new Set([...[...config.auth.apiKeys.values()].map((key) => key.tenant), ...runtime]).size;
}
