/** The tenant of a key configured without one, and of everything stored before tenants existed. */
export const DEFAULT_TENANT = 'default';

const TENANT_ID = /^[a-z0-9-]{1,64}$/;

/** A tenant id: 1–64 characters of lowercase letters, digits and `-`. */
export function isTenantId(value: string): boolean {
  return TENANT_ID.test(value);
}

export const TENANT_ID_RULE = '1–64 characters of a–z, 0–9 and -';
