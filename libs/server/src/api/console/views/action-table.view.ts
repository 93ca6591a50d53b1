import { ActionEntity } from '@app/database';
import { dataTable, statusBadge, timeTag } from './fragments';
import { SafeHtml, html, segment } from './html';

/** The first line of a long error, cut short: the table says which; the action's page says all. */
function summary(text: string | null): string {
  if (!text) return '';
  const line = text.split('\n', 1)[0];
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

/**
 * Actions as table rows, each linking to its page; the shared body of every list in the console.
 * Each names its tenant. Ids show their first 8 characters (the full id is the link's title and its page's address).
 */
export function actionTable(items: ActionEntity[], emptyText: string): SafeHtml {
  if (items.length === 0) return html`<p class="muted">${emptyText}</p>`;
  const rows = items.map(
    (a) =>
      html`<tr>
        <td>
          <a href="/admin/actions/${segment(a.id)}" title="${a.id}" aria-label="Action ${a.id}"><code>${a.id.slice(0, 8)}</code></a>
        </td>
        <td class="tenant">${a.tenantId}</td>
        <td>${a.action}</td>
        <td>${statusBadge(a.status)}</td>
        <td class="time">${timeTag(a.executionTime)}</td>
        <td class="wide-only">${a.occurrence}</td>
        <td class="wide-only">${a.retryCount}</td>
        <td class="wide-only error-summary">${summary(a.lastError)}</td>
      </tr>`,
  );
  const wide = (label: string) => ({ label, wideOnly: true }) as const;
  return dataTable(['Id', 'Tenant', 'Type', 'Status', 'Execution time', wide('Occurrence'), wide('Failed attempts'), wide('Last error')], rows, 'actions');
}
