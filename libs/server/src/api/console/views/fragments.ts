import { ActionStatus } from '@app/domain';
import { MIN_EPOCH_MS } from '../../input/api-time';
import { HtmlValue, SafeHtml, html } from './html';

/** Fields named `_csrf` carry the form's CSRF token (see CsrfGuard). */
export const CSRF_FIELD = '_csrf';

export function csrfField(token: string): SafeHtml {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${token}" />`;
}

/** `2030-01-15 08:35:17 UTC`: what a time reads without JavaScript, and on hover with it. */
export function utcText(date: Date): string {
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** A time in UTC; console.js rewrites the text into the browser's zone and keeps UTC in the tooltip. */
export function timeTag(date: Date | null): SafeHtml {
  if (!date) return html`<span class="muted">—</span>`;
  const tag = html`<time datetime="${date.toISOString()}" title="${utcText(date)}">${utcText(date)}</time>`;
  // A time this early was almost surely meant otherwise (0, or seconds as milliseconds): say so rather than show "Jan 1, 1970" as if meant.
  return date.getTime() < MIN_EPOCH_MS
    ? html`${tag} <span class="time-suspect">(epoch ${date.getTime()} ms: before 1973, most likely 0 or seconds sent as milliseconds)</span>`
    : tag;
}

export function statusBadge(status: ActionStatus): SafeHtml {
  return html`<span class="status status-${status.toLowerCase()}" data-status="${status}">${status}</span>`;
}

/** One term and its value in a `<dl class="facts">`. */
export function fact(term: string, value: HtmlValue): SafeHtml {
  return html`<div>
    <dt>${term}</dt>
    <dd>${value}</dd>
  </div>`;
}

/** A JSON value shown as indented text, never as markup. */
export function jsonBlock(value: unknown): SafeHtml {
  return html`<pre class="json">${JSON.stringify(value, null, 2)}</pre>`;
}

/** A number with thousands separators, the same on every machine. */
export function count(value: number): string {
  return value.toLocaleString('en-US');
}

/** One decimal at most: `10`, `12.3`. */
function round(value: number): string {
  return String(Math.round(value * 10) / 10);
}

/** A duration in ms as `850 ms`, `12.3 s` or `4.5 min`. */
export function duration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${round(ms / 1000)} s`;
  return `${round(ms / 60_000)} min`;
}

/** A column heading; a `wideOnly` column is hidden on narrow screens. */
export type Column = string | { readonly label: string; readonly wideOnly: true };

/** The console's tables: a scrolling wrapper, one row of column headings, then `rows`. */
export function dataTable(columns: readonly Column[], rows: readonly SafeHtml[], tableClass?: string): SafeHtml {
  const headings = columns.map((column) =>
    typeof column === 'string' ? html`<th scope="col">${column}</th>` : html`<th scope="col" class="wide-only">${column.label}</th>`,
  );
  return html`<div class="table-wrap">
    <table${tableClass ? html` class="${tableClass}"` : ''}>
      <thead>
        <tr>
          ${headings}
        </tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>
  </div>`;
}
