import { DeliveryRecord, SubscriptionRecord } from '@app/database';
import { csrfField, dataTable, fact, timeTag } from './fragments';
import { SafeHtml, html, segment } from './html';
import { TenantFilter, tenantFilterForm } from './tenant-filter.view';

/** A subscription with its latest deliveries, newest first. */
export interface SubscriptionDeliveries {
  subscription: SubscriptionRecord;
  deliveries: DeliveryRecord[];
}

/** Only a finished delivery can be sent again; a pending one is on its way already. */
const REDELIVERABLE: readonly DeliveryRecord['status'][] = ['FAILED', 'DELIVERED'];

/** What every form of the page sends: its token, and the tenant the page is limited to, to come back to it. */
function formFields(tenant: string | undefined, csrfToken: string): SafeHtml {
  return html`${csrfField(csrfToken)} ${tenant ? html`<input type="hidden" name="tenant" value="${tenant}" />` : ''}`;
}

function deliveryRow(subscriptionId: string, d: DeliveryRecord, fields: SafeHtml): SafeHtml {
  const redeliver = REDELIVERABLE.includes(d.status)
    ? html`<form method="post" action="/admin/webhooks/${segment(subscriptionId)}/deliveries/${segment(d.id)}/redeliver">
        ${fields}
        <button type="submit" aria-label="Redeliver ${d.id}">Redeliver</button>
      </form>`
    : '';
  const action = d.actionId ? html`<a href="/admin/actions/${segment(d.actionId)}" title="${d.actionId}"><code>${d.actionId.slice(0, 8)}</code></a>` : '';
  return html`<tr data-delivery="${d.id}">
    <td>${d.type} ${action}</td>
    <td><span class="status status-${d.status.toLowerCase()}" data-delivery-status="${d.status}">${d.status}</span></td>
    <td>${d.attempts}</td>
    ${
      // The error already names the status it came with; a success has only the status.
      d.lastError
        ? html`<td class="wide-only error-summary">${d.lastError}</td>`
        : html`<td class="wide-only">${d.lastStatusCode === null ? '' : `HTTP ${d.lastStatusCode}`}</td>`
    }
    <td class="time">${timeTag(d.createdAt)}</td>
    <td class="time wide-only">${timeTag(d.deliveredAt)}</td>
    <td>${redeliver}</td>
  </tr>`;
}

function subscriptionSection({ subscription: s, deliveries }: SubscriptionDeliveries, fields: SafeHtml): SafeHtml {
  const wide = (label: string) => ({ label, wideOnly: true }) as const;
  return html`<section class="subscription" data-subscription="${s.id}" aria-labelledby="sub-${s.id}">
    <h2 id="sub-${s.id}"><code>${s.url}</code></h2>
    ${s.description ? html`<p>${s.description}</p>` : ''}
    <dl class="facts">
      ${fact('Tenant', html`<a href="/admin/webhooks?tenant=${segment(s.tenantId)}">${s.tenantId}</a>`)} ${fact('Events', s.events.join(', '))}
      ${fact('Action types', s.actionTypes === null ? 'all' : s.actionTypes.join(', '))} ${fact('Created', timeTag(s.createdAt))}
      ${fact('Id', html`<code>${s.id}</code>`)}
    </dl>
    ${
      deliveries.length === 0
        ? html`<p class="muted">No delivery yet.</p>`
        : dataTable(
            ['Event', 'Status', 'Attempts', wide('Last answer'), 'Created', wide('Delivered'), 'Send again'],
            deliveries.map((d) => deliveryRow(s.id, d, fields)),
            'deliveries',
          )
    }
  </section>`;
}

/** Every webhook subscription (of every tenant, or of one) with its latest deliveries, and redelivery of a finished one. */
export function webhooksView(subscriptions: SubscriptionDeliveries[], shown: number, tenant: TenantFilter, csrfToken: string): SafeHtml {
  const fields = formFields(tenant.selected, csrfToken);
  return html`<h1>Webhooks</h1>
    ${tenantFilterForm('/admin/webhooks', tenant)}
    <p class="muted">
      Subscriptions, each with its latest ${shown} deliveries, newest first. A redelivery sends the same event again, with the same webhook-id.
    </p>
    ${subscriptions.length === 0 ? html`<p class="muted">No webhook subscription.</p>` : subscriptions.map((s) => subscriptionSection(s, fields))}`;
}
