/** The NATS server of the test run (`scripts/test-services.sh` starts one on this machine when none answers). */
export const NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

/**
 * What an API serving RPC on `NATS_URL` is given besides: that server has no users, so it is one trust domain,
 * and the specs' clients wait under NATS's default inbox prefix rather than their tenant's.
 */
export const ONE_TRUST_DOMAIN_NATS = { RPC_TENANT_INBOX_PREFIX: 'off' };

/** The test run's NATS server with a user per tenant, running `config/nats/tenants.conf` (`scripts/test-services.sh` starts it). */
export const NATS_TENANTS_URL = process.env.TEST_NATS_TENANTS_URL ?? 'nats://127.0.0.1:4223';

/** A user of `config/nats/tenants.conf`, with the inbox prefix it may subscribe to (tenants' users only). */
export interface NatsUser {
  user: string;
  pass: string;
  inboxPrefix?: string;
}

export const NATS_USERS = {
  punctual: { user: 'punctual', pass: 'punctual-nats-dev-password' },
  teamA: { user: 'team-a', pass: 'team-a-nats-dev-password', inboxPrefix: '_INBOX_team-a' },
  teamB: { user: 'team-b', pass: 'team-b-nats-dev-password', inboxPrefix: '_INBOX_team-b' },
} satisfies Record<string, NatsUser>;

/** `NATS_TENANTS_URL` with the user's credentials in it, as `RPC_TRANSPORT_URL` or a client's `transport` takes them. */
export function natsUrlAs({ user, pass }: NatsUser): string {
  const url = new URL(NATS_TENANTS_URL);
  url.username = encodeURIComponent(user);
  url.password = encodeURIComponent(pass);
  return url.toString().replace(/\/$/, '');
}
