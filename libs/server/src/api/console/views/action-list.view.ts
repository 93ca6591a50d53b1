import { ActionEntity } from '@app/database';
import { ALL_STATUSES, ActionStatus } from '@app/domain';
import { actionTable } from './action-table.view';
import { SafeHtml, html, queryString } from './html';
import { TenantFilter, tenantSelect } from './tenant-filter.view';

export const DEFAULT_PAGE_SIZE = 50;

/** The list's filters as the console understood them from the query string. */
export interface ListFilters {
  /** Only this tenant's actions; every tenant's when undefined. */
  tenant?: string;
  status?: ActionStatus;
  action?: string;
  /** Only paused actions (true) or only those not paused (false). */
  paused?: boolean;
  dueFrom?: Date;
  dueBefore?: Date;
  newestFirst: boolean;
  /** Actions per page. */
  limit: number;
  cursor?: string;
}

export interface ActionListData {
  filters: ListFilters;
  items: ActionEntity[];
  nextCursor: string | null;
  /** Types to offer in the filter: the registered ones, and the one filtered by. */
  types: string[];
  /** The tenants to offer in the filter. */
  tenant: TenantFilter;
}

/** The query string of these filters (without the cursor unless given): for the next page and for links. */
export function listQuery(filters: ListFilters, cursor?: string): string {
  return queryString({
    tenant: filters.tenant,
    status: filters.status,
    action: filters.action,
    paused: filters.paused === undefined ? undefined : filters.paused ? 'yes' : 'no',
    from: filters.dueFrom?.toISOString(),
    to: filters.dueBefore?.toISOString(),
    order: filters.newestFirst ? 'newest' : undefined,
    limit: filters.limit === DEFAULT_PAGE_SIZE ? undefined : String(filters.limit),
    cursor,
  });
}

/** A datetime-local field showing `value` in UTC; console.js switches it (and its label) to the browser's zone. */
export function localTimeField(name: string, label: string, value: Date | undefined): SafeHtml {
  const utc = value ? value.toISOString().slice(0, 19) : '';
  return html`<div class="field">
    <label for="${name}">${label} <span class="zone" data-zone-label>(UTC)</span></label>
    <input type="datetime-local" id="${name}" name="${name}" step="1" value="${utc}" data-utc-value="${value?.toISOString() ?? ''}" />
  </div>`;
}

function filterForm(filters: ListFilters, types: string[], tenant: TenantFilter): SafeHtml {
  const option = (value: string, label: string, selected: boolean) => html`<option value="${value}" ${selected ? html` selected` : ''}>${label}</option>`;
  return html`<form class="filters" method="get" action="/admin/actions" data-local-times>
    <div class="field field-wide">
      <label for="id">Find by id</label>
      <input type="search" id="id" name="id" placeholder="paste an action id" autocomplete="off" spellcheck="false" />
    </div>
    ${tenantSelect(tenant)}
    <div class="field">
      <label for="status">Status</label>
      <select id="status" name="status">
        ${option('', 'any', !filters.status)}${ALL_STATUSES.map((s) => option(s, s, filters.status === s))}
      </select>
    </div>
    <div class="field">
      <label for="action">Type</label>
      <select id="action" name="action">
        ${option('', 'any', !filters.action)}${types.map((t) => option(t, t, filters.action === t))}
      </select>
    </div>
    <div class="field">
      <label for="paused">Paused</label>
      <select id="paused" name="paused">
        ${option('', 'any', filters.paused === undefined)}${option('yes', 'paused', filters.paused === true)}${option('no', 'not paused', filters.paused === false)}
      </select>
    </div>
    ${localTimeField('from', 'Due from', filters.dueFrom)} ${localTimeField('to', 'Due before', filters.dueBefore)}
    <div class="field">
      <label for="order">Order</label>
      <select id="order" name="order">
        ${option('next-due', 'next due first', !filters.newestFirst)}${option('newest', 'newest first', filters.newestFirst)}
      </select>
    </div>
    <div class="field field-actions"><button type="submit">Show</button> <a href="/admin/actions">Clear</a></div>
  </form>`;
}

/** The filterable, keyset-paginated list of actions. */
export function actionListView(data: ActionListData): SafeHtml {
  const more = data.nextCursor
    ? html`<a class="button" rel="next" href="/admin/actions${listQuery(data.filters, data.nextCursor)}">Next page</a>`
    : html``;
  const first = data.filters.cursor ? html`<a href="/admin/actions${listQuery(data.filters)}">First page</a>` : html``;
  return html`<h1>Actions</h1>
    ${filterForm(data.filters, data.types, data.tenant)}
    <p class="muted">Ordered by execution time, ${data.filters.newestFirst ? 'latest' : 'earliest'} first.</p>
    ${actionTable(data.items, 'No action matches these filters.')}
    <nav class="pager" aria-label="Pages">${first} ${more}</nav>`;
}
