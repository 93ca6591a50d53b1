import { SafeHtml, html } from './html';

/** A page saying what went wrong with the request, and the way back. */
export function errorView(statusCode: number, title: string, messages: string[]): SafeHtml {
  return html`<h1>${title}</h1>
    <div class="notice notice-error" role="alert">${messages.map((message) => html`<p>${message}</p>`)}</div>
    <p class="muted">HTTP ${statusCode}. <a href="/admin">Back to the overview</a></p>`;
}
