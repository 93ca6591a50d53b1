import { Injectable } from '@nestjs/common';
import { EVERY_TENANT, tenantScope } from '@app/database';
import { TenantsAdminService } from '../admin-api/tenants-admin.service';
import { ConsoleInputError, RawInput, parseTenantId, textField } from './console-input';
import { TenantFilter } from './views/tenant-filter.view';

/**
 * The tenant a console page is filtered by, from its `tenant` query field: none shows every
 * tenant's rows; an id that is not a tenant's is refused (400) rather than shown as an empty page.
 */
@Injectable()
export class ConsoleTenants {
  constructor(private readonly tenants: TenantsAdminService) {}

  async filter(query: RawInput): Promise<TenantFilter> {
    const raw = textField(query, 'tenant');
    const selected = raw === undefined ? undefined : parseTenantId(raw);
    const tenants = (await this.tenants.list()).map((tenant) => tenant.id);
    if (selected === undefined) return { tenants, selected, scope: EVERY_TENANT };
    if (!tenants.includes(selected)) throw new ConsoleInputError('tenant', `must name a tenant: there is no tenant ${selected}`);
    return { tenants, selected, scope: tenantScope(selected) };
  }

  /** The page after a change refused for `tenant`'s rows: limited to that tenant when there is one, else every tenant's. */
  async around(tenant: string | undefined): Promise<TenantFilter> {
    const tenants = (await this.tenants.list()).map((t) => t.id);
    if (tenant === undefined || !tenants.includes(tenant)) return { tenants, scope: EVERY_TENANT };
    return { tenants, selected: tenant, scope: tenantScope(tenant) };
  }
}
