import { ActionEntity } from '@app/database';
import { actionTable } from './action-table.view';
import { count, csrfField, dataTable } from './fragments';
import { SafeHtml, html, queryString, segment } from './html';

/** Every type with FAILED actions, and how many. */
export function deadLetterTypesView(failedByType: [type: string, failed: number][]): SafeHtml {
  const rows = failedByType.map(
    ([type, failed]) =>
      html`<tr>
        <th scope="row"><a href="/admin/dead-letters/${segment(type)}">${type}</a></th>
        <td>${count(failed)}</td>
      </tr>`,
  );
  return html`<h1>Dead letters</h1>
    <p>Actions that used up their retries are FAILED and wait here for someone to retry or delete them.</p>
    ${rows.length === 0 ? html`<p class="muted">No FAILED action.</p>` : dataTable(['Type', 'FAILED'], rows)}`;
}

export interface DeadLettersOfTypeData {
  type: string;
  failed: number;
  items: ActionEntity[];
  nextCursor: string | null;
  cursor?: string;
}

/** The FAILED actions of one type, with the way to retry them all. */
export function deadLettersOfTypeView(data: DeadLettersOfTypeData): SafeHtml {
  const base = `/admin/dead-letters/${segment(data.type)}`;
  const more = data.nextCursor ? html`<a class="button" rel="next" href="${base}${queryString({ cursor: data.nextCursor })}">Next page</a>` : '';
  const first = data.cursor ? html`<a href="${base}">First page</a>` : '';
  return html`<p class="breadcrumb"><a href="/admin/dead-letters">Dead letters</a> › ${data.type}</p>
    <h1>FAILED ${data.type} actions <span class="muted">(${count(data.failed)})</span></h1>
    ${data.failed > 0 ? html`<p><a class="button" href="${base}/retry-all">Retry all ${count(data.failed)}…</a></p>` : ''}
    ${actionTable(data.items, `No FAILED ${data.type} action.`)}
    <nav class="pager" aria-label="Pages">${first} ${more}</nav>`;
}

/** The confirmation in front of "retry all": it says how many, and nothing happens until it is sent. */
export function retryAllConfirmView(type: string, failed: number, csrfToken: string): SafeHtml {
  const base = `/admin/dead-letters/${segment(type)}`;
  return html`<p class="breadcrumb"><a href="/admin/dead-letters">Dead letters</a> › <a href="${base}">${type}</a></p>
    <h1>Retry all FAILED ${type} actions?</h1>
    <form method="post" action="${base}/retry-all" class="confirm">
      ${csrfField(csrfToken)}
      <p>
        This puts <strong>${count(failed)}</strong> FAILED ${type} action${failed === 1 ? '' : 's'} back to PENDING, due now. Each runs its failed
        occurrence again, with the same idempotency key, exactly as if it were retried on its own.
      </p>
      <button type="submit">Retry all ${count(failed)}</button> <a href="${base}">Cancel</a>
    </form>`;
}
