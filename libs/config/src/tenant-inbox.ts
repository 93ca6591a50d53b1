/** What `RPC_TENANT_INBOX_PREFIX` puts the tenant's id in place of. */
export const TENANT_PLACEHOLDER = '{tenant}';

/** The default: the inbox prefix each tenant's NATS user may subscribe under in `config/nats/tenants.conf`. */
export const DEFAULT_TENANT_INBOX_PREFIX = `_INBOX_${TENANT_PLACEHOLDER}`;

/**
 * NATS subject tokens, then `{tenant}` inside the last one. A tenant id holds no dot, and nothing after
 * it may either: so no tenant's inbox can lie inside another's (`_INBOX_a.` never starts `_INBOX_a-b.`).
 */
const PATTERN = /^([A-Za-z0-9_-]+\.)*[A-Za-z0-9_-]*\{tenant\}[A-Za-z0-9_-]*$/;

export const TENANT_INBOX_PREFIX_RULE = `off, or NATS subject tokens with ${TENANT_PLACEHOLDER} in the last one, like ${DEFAULT_TENANT_INBOX_PREFIX}`;

export function isTenantInboxPattern(raw: string): boolean {
  return PATTERN.test(raw);
}

/** Whether `subject` lies in the inbox of `tenant`: under `<prefix>.`, the prefix being `pattern` with the tenant's id in it. */
export function isInTenantInbox(subject: string | undefined, pattern: string, tenant: string): boolean {
  return subject !== undefined && subject.startsWith(`${pattern.replace(TENANT_PLACEHOLDER, () => tenant)}.`);
}
