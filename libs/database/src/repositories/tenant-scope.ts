/**
 * Whose rows a read may see: one tenant's (a request signed by one of its keys), or every
 * tenant's (an operator, in the console). Every read of tenant-owned rows takes one, so none can
 * forget it; `ownedBy` is what the statements compare with.
 */
export type TenantScope = { readonly tenant: string } | { readonly everyTenant: true };

export const EVERY_TENANT: TenantScope = { everyTenant: true };

export function tenantScope(tenant: string): TenantScope {
  return { tenant };
}

/** The tenant a scope is limited to; null for every tenant. */
export function ownedBy(scope: TenantScope): string | null {
  return 'tenant' in scope ? scope.tenant : null;
}

/** A condition on `column` for `scope`, its value as parameter `$index`: true for every tenant. */
export function tenantCondition(scope: TenantScope, column: string, index: number): string {
  return 'tenant' in scope ? `${column} = $${index}` : `($${index}::varchar IS NULL)`;
}
