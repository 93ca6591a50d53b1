import { Response } from 'express';
import { SafeHtml, html } from './html';
import { withTenant } from './tenant-filter.view';

export const HTML_CONTENT_TYPE = 'text/html; charset=utf-8';

export type ConsoleSection = 'overview' | 'actions' | 'dead-letters' | 'webhooks' | 'calendars' | 'tenants' | 'workers';

/** A message about what the last operation did: done, or refused with the reason. */
export interface Notice {
  kind: 'success' | 'error';
  text: string;
}

export interface Page {
  title: string;
  section?: ConsoleSection;
  body: SafeHtml;
  notice?: Notice;
  /** The tenant the page is limited to: the navigation keeps it. */
  tenant?: string;
}

/** The sections; those `byTenant` take the tenant filter along. */
const SECTIONS: { id: ConsoleSection; href: string; label: string; byTenant: boolean }[] = [
  { id: 'overview', href: '/admin', label: 'Overview', byTenant: true },
  { id: 'actions', href: '/admin/actions', label: 'Actions', byTenant: true },
  { id: 'dead-letters', href: '/admin/dead-letters', label: 'Dead letters', byTenant: true },
  { id: 'webhooks', href: '/admin/webhooks', label: 'Webhooks', byTenant: true },
  { id: 'calendars', href: '/admin/calendars', label: 'Calendars', byTenant: true },
  { id: 'tenants', href: '/admin/tenants', label: 'Tenants', byTenant: false },
  { id: 'workers', href: '/admin/workers', label: 'Workers', byTenant: false },
];

export function noticeBox(notice: Notice | undefined): SafeHtml {
  if (!notice) return html``;
  // An error is announced at once; a success politely.
  return notice.kind === 'error'
    ? html`<div class="notice notice-error" role="alert"><strong>Refused:</strong> ${notice.text}</div>`
    : html`<div class="notice notice-success" role="status">${notice.text}</div>`;
}

/** The page around every console view: navigation, the notice, and the console's own CSS and script. */
export function layout(page: Page): string {
  const nav = SECTIONS.map((s) => {
    const href = s.byTenant ? withTenant(s.href, page.tenant) : s.href;
    return html`<li><a href="${href}" ${s.id === page.section ? html` aria-current="page"` : ''}>${s.label}</a></li>`;
  });
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${page.title} · Punctual console</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href="/admin/assets/console.css" />
        <script src="/admin/assets/console.js" defer></script>
      </head>
      <body>
        <a class="skip-link" href="#main">Skip to content</a>
        <header class="top">
          <a class="brand" href="/admin">Punctual</a>
          <nav aria-label="Console">
            <ul>
              ${nav}
              <li>
                <a href="/admin/queues">Queues <span class="muted">(Bull Board)</span></a>
              </li>
            </ul>
          </nav>
        </header>
        <main id="main" tabindex="-1">${noticeBox(page.notice)} ${page.body}</main>
      </body>
    </html> `.value;
}

/** Sends a rendered page with its status, for handlers that may also redirect. */
export function sendPage(res: Response, status: number, page: string): void {
  res.status(status).type(HTML_CONTENT_TYPE).send(page);
}
