import { ActionEntity } from '@app/database';
import { ActionStatus } from '@app/domain';
import { DEAD_LETTER_STATUSES, DeadLetterStatus } from '../console-input';
import { actionTable } from './action-table.view';
import { count, csrfField, dataTable } from './fragments';
import { SafeHtml, html, queryString, segment } from './html';
import { TenantFilter, tenantFilterForm, withTenant } from './tenant-filter.view';

/** Where the actions of `type` in `status` are listed, of the tenant filtered by. */
function typeHref(type: string, status: DeadLetterStatus, tenant: string | undefined, tail = ''): string {
  const path = `/admin/dead-letters/${segment(type)}${tail}`;
  return withTenant(status === ActionStatus.Failed ? path : `${path}${queryString({ status })}`, tenant);
}

function breadcrumb(tenant: string | undefined, ...trail: SafeHtml[]): SafeHtml {
  return html`<p class="breadcrumb"><a href="${withTenant('/admin/dead-letters', tenant)}">Dead letters</a>${trail.map((part) => html` › ${part}`)}</p>`;
}

/** Every type with FAILED or NO_ACTION actions (of every tenant, or of one), and how many of each, in the order of DEAD_LETTER_STATUSES. */
export function deadLetterTypesView(byType: { type: string; counts: number[] }[], tenant: TenantFilter): SafeHtml {
  const rows = byType.map(
    ({ type, counts }) =>
      html`<tr>
        <th scope="row"><a href="${typeHref(type, ActionStatus.Failed, tenant.selected)}">${type}</a></th>
        ${DEAD_LETTER_STATUSES.map(
          (status, i) =>
            html`<td>
              ${counts[i] > 0 ? html`<a href="${typeHref(type, status, tenant.selected)}" aria-label="${status}">${count(counts[i])}</a>` : '0'}
            </td>`,
        )}
      </tr>`,
  );
  return html`<h1>Dead letters</h1>
    ${tenantFilterForm('/admin/dead-letters', tenant)}
    <p>
      Actions that used up their retries are FAILED; actions that were due for UNKNOWN_TYPE_GRACE_MS while no running worker knew their type are NO_ACTION.
      Both wait here for someone to retry or delete them.
    </p>
    ${rows.length === 0 ? html`<p class="muted">No FAILED or NO_ACTION action.</p>` : dataTable(['Type', ...DEAD_LETTER_STATUSES], rows)}`;
}

export interface DeadLettersOfTypeData {
  type: string;
  status: DeadLetterStatus;
  total: number;
  items: ActionEntity[];
  nextCursor: string | null;
  cursor?: string;
  tenant: TenantFilter;
}

/** The actions of one type in one dead-letter status, with the way to retry them all. */
export function deadLettersOfTypeView(data: DeadLettersOfTypeData): SafeHtml {
  const tenant = data.tenant.selected;
  const { type, status } = data;
  const base = typeHref(type, status, tenant);
  const statusParam = status === ActionStatus.Failed ? undefined : status;
  const more = data.nextCursor
    ? html`<a class="button" rel="next" href="/admin/dead-letters/${segment(type)}${queryString({ tenant, status: statusParam, cursor: data.nextCursor })}"
        >Next page</a
      >`
    : '';
  const first = data.cursor ? html`<a href="${base}">First page</a>` : '';
  return html`${breadcrumb(tenant, html`${type}`)}
    <h1>${status} ${type} actions <span class="muted">(${count(data.total)}${tenant ? ` of tenant ${tenant}` : ''})</span></h1>
    ${data.total > 0 ? html`<p><a class="button" href="${typeHref(type, status, tenant, '/retry-all')}">Retry all ${count(data.total)}…</a></p>` : ''}
    ${actionTable(data.items, `No ${status} ${type} action.`)}
    <nav class="pager" aria-label="Pages">${first} ${more}</nav>`;
}

/** The confirmation in front of "retry all": it says how many (of which status and tenant), and nothing happens until it is sent. */
export function retryAllConfirmView(type: string, status: DeadLetterStatus, total: number, tenant: string | undefined, csrfToken: string): SafeHtml {
  const base = typeHref(type, status, tenant);
  const whose = tenant ? html` of tenant <strong>${tenant}</strong>` : html` of every tenant`;
  const again = status === ActionStatus.Failed ? 'runs its failed occurrence again' : 'runs the occurrence that ended NO_ACTION';
  return html`${breadcrumb(tenant, html`<a href="${base}">${type}</a>`)}
    <h1>Retry all ${status} ${type} actions?</h1>
    <form method="post" action="/admin/dead-letters/${segment(type)}/retry-all" class="confirm">
      ${csrfField(csrfToken)} ${tenant ? html`<input type="hidden" name="tenant" value="${tenant}" />` : ''}
      <input type="hidden" name="status" value="${status}" />
      <p>
        This puts <strong>${count(total)}</strong> ${status} ${type} action${total === 1 ? '' : 's'}${whose} back to PENDING, due now. Each ${again}, with
        the same idempotency key, exactly as if it were retried on its own.
      </p>
      <button type="submit">Retry all ${count(total)}</button> <a href="${base}">Cancel</a>
    </form>`;
}
