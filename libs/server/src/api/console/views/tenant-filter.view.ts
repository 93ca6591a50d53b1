import { TenantScope } from '@app/database';
import { SafeHtml, html } from './html';

/** Whose rows a page shows, and the tenants it could show instead. */
export interface TenantFilter {
  /** Every tenant's id, in order. */
  tenants: string[];
  /** The tenant the page is limited to; undefined for every tenant. */
  selected?: string;
  scope: TenantScope;
}

/** `href` limited to `tenant` (its query and fragment kept); `href` itself for every tenant. */
export function withTenant(href: string, tenant: string | undefined): string {
  if (!tenant) return href;
  const [path, fragment] = href.split('#', 2);
  const joined = `${path}${path.includes('?') ? '&' : '?'}tenant=${encodeURIComponent(tenant)}`;
  return fragment === undefined ? joined : `${joined}#${fragment}`;
}

/** The tenant field of a filter form: every tenant, or one of them. */
export function tenantSelect(filter: TenantFilter, id = 'tenant'): SafeHtml {
  const option = (value: string, label: string, selected: boolean) => html`<option value="${value}" ${selected ? html` selected` : ''}>${label}</option>`;
  return html`<div class="field">
    <label for="${id}">Tenant</label>
    <select id="${id}" name="tenant">
      ${option('', 'every tenant', filter.selected === undefined)}${filter.tenants.map((t) => option(t, t, filter.selected === t))}
    </select>
  </div>`;
}

/** A page's own filter form when the tenant is its only filter. */
export function tenantFilterForm(path: string, filter: TenantFilter): SafeHtml {
  return html`<form class="filters tenant-filter" method="get" action="${path}">
    ${tenantSelect(filter)}
    <div class="field field-actions"><button type="submit">Show</button></div>
  </form>`;
}
