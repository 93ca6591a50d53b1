import { ActionStats, MinuteActivity, OverdueActions } from '@app/database';
import { ALL_STATUSES } from '@app/domain';
import { activityCharts } from './activity-chart.view';
import { count, dataTable, duration, statusBadge, timeTag } from './fragments';
import { SafeHtml, html, queryString, segment } from './html';
import { TenantFilter, tenantFilterForm } from './tenant-filter.view';

export interface OverviewData {
  stats: ActionStats;
  overdue: OverdueActions;
  overdueAfterMs: number;
  minutes: MinuteActivity[];
  at: Date;
  /** Every figure is of this tenant, or of every tenant. */
  tenant: TenantFilter;
}

function counts(stats: ActionStats, tenant: string | undefined): SafeHtml {
  const listLink = (filters: { status?: string; action?: string }) => `/admin/actions${queryString({ tenant, ...filters })}`;
  const tiles = ALL_STATUSES.map(
    (status) =>
      html`<li>
        <a href="${listLink({ status })}"><span class="tile-count">${count(stats.byStatus[status])}</span> ${statusBadge(status)}</a>
      </li>`,
  );
  const types = Object.keys(stats.byAction).sort();
  const rows = types.map((type) => {
    const byStatus = stats.byAction[type];
    const total = ALL_STATUSES.reduce((sum, status) => sum + (byStatus[status] ?? 0), 0);
    const cells = ALL_STATUSES.map((status) => {
      const n = byStatus[status] ?? 0;
      return html`<td>${n === 0 ? html`<span class="muted">0</span>` : html`<a href="${listLink({ status, action: type })}">${count(n)}</a>`}</td>`;
    });
    return html`<tr>
      <th scope="row"><a href="${listLink({ action: type })}">${type}</a></th>
      ${cells}
      <td>${count(total)}</td>
    </tr>`;
  });
  return html`<section aria-labelledby="by-status">
      <h2 id="by-status">Actions by status <span class="muted">(${count(stats.total)} ${tenant ? `of tenant ${tenant}` : 'in all'})</span></h2>
      <ul class="tiles">
        ${tiles}
      </ul>
    </section>
    <section aria-labelledby="by-type">
      <h2 id="by-type">By type</h2>
      ${types.length === 0 ? html`<p class="muted">No actions stored.</p>` : dataTable(['Type', ...ALL_STATUSES, 'Total'], rows)}
    </section>`;
}

/** What a heading adds when the page is limited to one tenant. */
function ofTenant(tenant: string | undefined): SafeHtml {
  return tenant === undefined ? html`` : html` <span class="muted">(of tenant ${tenant})</span>`;
}

function overdueSection(overdue: OverdueActions, afterMs: number, tenant: string | undefined): SafeHtml {
  const items = overdue.oldest.map(
    (a) =>
      html`<li>
        <a href="/admin/actions/${segment(a.id)}"><code>${a.id}</code></a> ${a.action}, due ${timeTag(a.nextAttemptAt)}
      </li>`,
  );
  return html`<section aria-labelledby="overdue">
    <h2 id="overdue">Overdue${ofTenant(tenant)}</h2>
    ${
      overdue.count === 0
        ? html`<p>No PENDING action is more than ${duration(afterMs)} late.</p>`
        : html`<p class="warning">
              ${count(overdue.count)} PENDING action${overdue.count === 1 ? ' is' : 's are'} more than ${duration(afterMs)} late: no worker serving their
              type is keeping up, or none is running.
            </p>
            <ul class="plain">
              ${items}
            </ul>`
    }
  </section>`;
}

/** Counts, overdue actions and the last hour; the `data-live` regions refresh themselves (console.js). */
export function overviewView(data: OverviewData): SafeHtml {
  return html`<h1>Overview</h1>
    ${tenantFilterForm('/admin', data.tenant)}
    <div id="live-overview" data-live>
      <p class="muted live-note">Refreshes every 10 seconds. Figures as of ${timeTag(data.at)}.</p>
      ${counts(data.stats, data.tenant.selected)} ${overdueSection(data.overdue, data.overdueAfterMs, data.tenant.selected)}
      <section aria-labelledby="last-hour">
        <h2 id="last-hour">Last hour${ofTenant(data.tenant.selected)}</h2>
        ${activityCharts(data.minutes)}
      </section>
    </div>`;
}
