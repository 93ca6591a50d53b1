import { ActionEntity } from '@app/database';
import { actionTable } from './action-table.view';
import { count, csrfField, dataTable } from './fragments';
import { SafeHtml, html, queryString, segment } from './html';
import { TenantFilter, tenantFilterForm, withTenant } from './tenant-filter.view';

/** Where the FAILED actions of `type` are listed, of the tenant filtered by. */
function typeHref(type: string, tenant: string | undefined, tail = ''): string {
  return withTenant(`/admin/dead-letters/${segment(type)}${tail}`, tenant);
}

function breadcrumb(tenant: string | undefined, ...trail: SafeHtml[]): SafeHtml {
  return html`<p class="breadcrumb"><a href="${withTenant('/admin/dead-letters', tenant)}">Dead letters</a>${trail.map((part) => html` › ${part}`)}</p>`;
}

/** Every type with FAILED actions (of every tenant, or of one), and how many. */
export function deadLetterTypesView(failedByType: [type: string, failed: number][], tenant: TenantFilter): SafeHtml {
  const rows = failedByType.map(
    ([type, failed]) =>
      html`<tr>
        <th scope="row"><a href="${typeHref(type, tenant.selected)}">${type}</a></th>
        <td>${count(failed)}</td>
      </tr>`,
  );
  return html`<h1>Dead letters</h1>
    ${tenantFilterForm('/admin/dead-letters', tenant)}
    <p>Actions that used up their retries are FAILED and wait here for someone to retry or delete them.</p>
    ${rows.length === 0 ? html`<p class="muted">No FAILED action.</p>` : dataTable(['Type', 'FAILED'], rows)}`;
}

export interface DeadLettersOfTypeData {
  type: string;
  failed: number;
  items: ActionEntity[];
  nextCursor: string | null;
  cursor?: string;
  tenant: TenantFilter;
}

/** The FAILED actions of one type, with the way to retry them all. */
export function deadLettersOfTypeView(data: DeadLettersOfTypeData): SafeHtml {
  const tenant = data.tenant.selected;
  const base = typeHref(data.type, tenant);
  const more = data.nextCursor
    ? html`<a class="button" rel="next" href="/admin/dead-letters/${segment(data.type)}${queryString({ tenant, cursor: data.nextCursor })}">Next page</a>`
    : '';
  const first = data.cursor ? html`<a href="${base}">First page</a>` : '';
  return html`${breadcrumb(tenant, html`${data.type}`)}
    <h1>FAILED ${data.type} actions <span class="muted">(${count(data.failed)}${tenant ? ` of tenant ${tenant}` : ''})</span></h1>
    ${data.failed > 0 ? html`<p><a class="button" href="${typeHref(data.type, tenant, '/retry-all')}">Retry all ${count(data.failed)}…</a></p>` : ''}
    ${actionTable(data.items, `No FAILED ${data.type} action.`)}
    <nav class="pager" aria-label="Pages">${first} ${more}</nav>`;
}

/** The confirmation in front of "retry all": it says how many (of which tenant), and nothing happens until it is sent. */
export function retryAllConfirmView(type: string, failed: number, tenant: string | undefined, csrfToken: string): SafeHtml {
  const base = typeHref(type, tenant);
  const whose = tenant ? html` of tenant <strong>${tenant}</strong>` : html` of every tenant`;
  return html`${breadcrumb(tenant, html`<a href="${base}">${type}</a>`)}
    <h1>Retry all FAILED ${type} actions?</h1>
    <form method="post" action="/admin/dead-letters/${segment(type)}/retry-all" class="confirm">
      ${csrfField(csrfToken)} ${tenant ? html`<input type="hidden" name="tenant" value="${tenant}" />` : ''}
      <p>
        This puts <strong>${count(failed)}</strong> FAILED ${type} action${failed === 1 ? '' : 's'}${whose} back to PENDING, due now. Each runs its failed
        occurrence again, with the same idempotency key, exactly as if it were retried on its own.
      </p>
      <button type="submit">Retry all ${count(failed)}</button> <a href="${base}">Cancel</a>
    </form>`;
}
