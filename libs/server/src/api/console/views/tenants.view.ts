import { DEFAULT_TENANT, MessagingReach, TENANT_ID_RULE } from '@app/domain';
import { CreatedKey, TenantView } from '../../admin-api/tenants-admin.service';
import { count, csrfField, dataTable, fact, timeTag } from './fragments';
import { SafeHtml, html, segment } from './html';

/** A tenant's limits by name, as the admin API names them. */
export type LimitName = 'maxActiveActions' | 'createRate' | 'maxConcurrency';

/** The deployment's limits, which a tenant without its own follows; null: no limit. */
export type LimitDefaults = Record<LimitName, number | null>;

/** A form's limit fields as they were sent: '' leaves a limit to the default. */
export type LimitFields = Record<LimitName, string>;

export const EMPTY_LIMIT_FIELDS: LimitFields = { maxActiveActions: '', createRate: '', maxConcurrency: '' };

/** What the form that creates a tenant shows: empty, or what was sent when it was refused. */
export interface NewTenantForm {
  id: string;
  limits: LimitFields;
}

export const EMPTY_TENANT_FORM: NewTenantForm = { id: '', limits: EMPTY_LIMIT_FIELDS };

/** A messaging form's fields as they were sent: transport names, and patterns one per line. */
export interface MessagingFields {
  transports: string;
  patterns: string;
}

export interface TenantsPageData {
  tenants: TenantView[];
  defaults: LimitDefaults;
  newTenant: NewTenantForm;
  /** A change of one tenant's limits that was refused, to be corrected rather than typed again. */
  refusedLimits?: { tenant: string; limits: LimitFields };
  /** The names of MESSAGE_TRANSPORTS, which a messaging grant may name. */
  transports: string[];
  /** A change of one tenant's messaging that was refused, to be corrected rather than typed again. */
  refusedMessaging?: { tenant: string; fields: MessagingFields };
  /** A key this console session just made: its secret is shown here, and never again. */
  newKey?: { tenant: string; key: CreatedKey };
  csrfToken: string;
}

const LIMITS: { name: LimitName; label: string; meaning: string; setting: string }[] = [
  { name: 'maxActiveActions', label: 'Active actions', meaning: 'actions PENDING or IN_PROGRESS at once', setting: 'TENANT_MAX_ACTIVE_ACTIONS' },
  { name: 'createRate', label: 'Create rate', meaning: 'creates per second, bursts of ten times as many', setting: 'TENANT_CREATE_RATE' },
  { name: 'maxConcurrency', label: 'Concurrency', meaning: 'attempts running at once across all workers', setting: 'TENANT_MAX_CONCURRENCY' },
];

/**
 * The element id of a tenant's section; the ids inside it add `.` and a name. A tenant's id has no
 * `.`, so no two tenants' ids meet, and no other id on the page starts with `tenant-`.
 */
export function tenantAnchor(id: string): string {
  return `tenant-${id}`;
}

function limitText(value: number | null): string {
  return value === null ? 'no limit' : count(value);
}

/** The limit a tenant is held to: its own, else the deployment's, saying which. */
function limitRow(tenant: TenantView, limit: (typeof LIMITS)[number], defaults: LimitDefaults): SafeHtml {
  const own = tenant.limits[limit.name];
  const setBy =
    own === null
      ? html`<span class="muted">the deployment's default (<code>${limit.setting}</code>)</span>`
      : html`its own <span class="muted">(default ${limitText(defaults[limit.name])})</span>`;
  return html`<tr data-limit="${limit.name}" data-set-by="${own === null ? 'default' : 'own'}">
    <th scope="row">${limit.label} <span class="muted wide-only">· ${limit.meaning}</span></th>
    <td data-value>${limitText(own ?? defaults[limit.name])}</td>
    <td>${setBy}</td>
  </tr>`;
}

/** Number fields for the limits, named as the admin API names them; empty is the default, shown as the placeholder. */
function limitFields(idPrefix: string, values: LimitFields, defaults: LimitDefaults): SafeHtml[] {
  return LIMITS.map(
    (limit) =>
      html`<div class="field">
        <label for="${idPrefix}-${limit.name}">${limit.label}</label>
        <input
          type="number"
          id="${idPrefix}-${limit.name}"
          name="${limit.name}"
          min="1"
          step="1"
          value="${values[limit.name]}"
          placeholder="default: ${limitText(defaults[limit.name])}"
        />
      </div>`,
  );
}

/** What a tenant's activeActions come to against the limit it is held to. */
function quotaUse(tenant: TenantView, defaults: LimitDefaults): SafeHtml {
  const max = tenant.limits.maxActiveActions ?? defaults.maxActiveActions;
  if (max === null) return html`<span data-quota>${count(tenant.activeActions)}</span> active actions <span class="muted">(no limit)</span>`;
  const share = tenant.activeActions / max;
  const percent = share > 0 && share < 0.01 ? '<1' : String(Math.round(share * 100));
  return html`<span data-quota${share >= 0.9 ? html` class="warning"` : ''}>${count(tenant.activeActions)} of ${count(max)}</span>
    <span class="muted">active actions (${percent}%)</span>`;
}

function keysTable(tenant: TenantView, csrfToken: string): SafeHtml {
  if (tenant.keys.length === 0) return html`<p class="muted">No key: nothing can sign for this tenant yet.</p>`;
  const rows = tenant.keys.map(
    (key) =>
      html`<tr data-key="${key.keyId}" data-source="${key.source}">
        <td><code>${key.keyId}</code></td>
        <td>${key.source === 'environment' ? html`environment <span class="muted">(<code>API_KEYS</code>)</span>` : 'made here'}</td>
        <td class="time">${timeTag(key.createdAt)}</td>
        <td>
          ${
            key.source === 'admin'
              ? html`<form
                  method="post"
                  action="/admin/tenants/${segment(tenant.id)}/keys/${segment(key.keyId)}/revoke"
                  data-confirm="Revoke key ${key.keyId} of tenant ${tenant.id}? Every API process refuses requests signed with it within seconds."
                >
                  ${csrfField(csrfToken)}
                  <button type="submit" class="danger" aria-label="Revoke ${key.keyId}">Revoke</button>
                </form>`
              : html`<span class="muted">retired in <code>API_KEYS</code></span>`
          }
        </td>
      </tr>`,
  );
  return dataTable(['Key id', 'Source', 'Created', 'Revoke'], rows, 'keys');
}

/** What the tenant's MESSAGE actions may reach, as a list an operator reads at a glance. */
function messagingFacts(reach: MessagingReach): SafeHtml {
  if (reach === null)
    return html`<p data-messaging="everything">Every transport and pattern: the tenant <code>default</code> keeps them until limited.</p>`;
  const list = (items: string[], none: string) =>
    items.length === 0 ? html`<span class="muted">${none}</span>` : items.map((item) => html`<code>${item}</code> `);
  return html`<dl class="facts" data-messaging="granted">
    ${fact('Transports', html`<span data-transports>${list(reach.transports, 'none')}</span>`)}
    ${fact('Patterns', html`<span data-patterns>${list(reach.patterns, 'none')}</span>`)}
  </dl>`;
}

/** The tenant's grant as the fields that change it: empty for nothing, and for the default's every transport and pattern. */
function messagingFieldsOf(reach: MessagingReach): MessagingFields {
  return { transports: reach?.transports.join(' ') ?? '', patterns: reach?.patterns.join('\n') ?? '' };
}

function messagingForm(tenant: TenantView, data: TenantsPageData, prefix: string): SafeHtml {
  const fields = data.refusedMessaging?.tenant === tenant.id ? data.refusedMessaging.fields : messagingFieldsOf(tenant.messaging);
  return html`<form method="post" action="/admin/tenants/${segment(tenant.id)}/messaging" class="filters" aria-label="Messaging of ${tenant.id}">
    ${csrfField(data.csrfToken)}
    <div class="field">
      <label for="${prefix}-transports">Transports</label>
      <input
        id="${prefix}-transports"
        name="transports"
        value="${fields.transports}"
        placeholder="${data.transports.join(' ')}"
        autocomplete="off"
        spellcheck="false"
      />
    </div>
    <div class="field">
      <label for="${prefix}-patterns">Patterns</label>
      <textarea id="${prefix}-patterns" name="patterns" rows="3" cols="36" spellcheck="false" placeholder="billing.&#10;audit.record">
${fields.patterns}</textarea>
    </div>
    <div class="field field-actions">
      <button type="submit" aria-label="Save the messaging of ${tenant.id}">Save messaging</button>
      ${
        tenant.id === DEFAULT_TENANT
          ? html`<button type="submit" name="reset" value="everything" aria-label="Let ${tenant.id} message every transport and pattern">
              Allow everything
            </button>`
          : ''
      }
    </div>
    <p class="hint">
      Transports are names of <code>MESSAGE_TRANSPORTS</code> (${data.transports.join(', ')}), between spaces or commas. Patterns go one per line: one
      ending in <code>.</code> allows every pattern that starts with it, any other only itself. Empty fields allow nothing. This API process applies a
      change at once, every other one and every worker within two seconds; a MESSAGE no longer allowed fails when it is due.
    </p>
  </form>`;
}

function tenantSection(tenant: TenantView, data: TenantsPageData): SafeHtml {
  const id = tenantAnchor(tenant.id);
  const on = (path: string) => `${path}?tenant=${segment(tenant.id)}`;
  const own = data.refusedLimits?.tenant === tenant.id ? data.refusedLimits.limits : ownLimitFields(tenant);
  return html`<section class="tenant" id="${id}" data-tenant="${tenant.id}" aria-labelledby="${id}.name">
    <h2 id="${id}.name"><code>${tenant.id}</code></h2>
    <p>
      Its <a href="${on('/admin/actions')}">actions</a> · <a href="${on('/admin')}">overview</a> ·
      <a href="${on('/admin/dead-letters')}">dead letters</a> · <a href="${on('/admin/webhooks')}">webhooks</a> ·
      <a href="${on('/admin/calendars')}">calendars</a>
    </p>
    <dl class="facts">${fact('Quota use', quotaUse(tenant, data.defaults))} ${fact('Created', timeTag(tenant.createdAt))}</dl>
    <h3>Limits</h3>
    ${dataTable(
      ['Limit', 'Held to', 'Set by'],
      LIMITS.map((limit) => limitRow(tenant, limit, data.defaults)),
      'limits',
    )}
    <form method="post" action="/admin/tenants/${segment(tenant.id)}/limits" class="filters" aria-label="Limits of ${tenant.id}">
      ${csrfField(data.csrfToken)} ${limitFields(`${id}.limit`, own, data.defaults)}
      <div class="field field-actions"><button type="submit" aria-label="Save the limits of ${tenant.id}">Save limits</button></div>
      <p class="hint">
        A field left empty follows the deployment's default. Every API process holds the tenant's creates to the new limits within a second.
      </p>
    </form>
    <h3>Messaging</h3>
    ${messagingFacts(tenant.messaging)} ${messagingForm(tenant, data, `${id}.messaging`)}
    <h3>Keys</h3>
    ${keysTable(tenant, data.csrfToken)}
    <form method="post" action="/admin/tenants/${segment(tenant.id)}/keys">
      ${csrfField(data.csrfToken)}
      <p>
        <button type="submit" aria-label="Make a key for ${tenant.id}">Make a key</button>
        <span class="hint">Its secret is shown once, on the page that follows.</span>
      </p>
    </form>
  </section>`;
}

/** A tenant's own limits as the fields that change them: empty where it follows the default. */
function ownLimitFields(tenant: TenantView): LimitFields {
  const text = (value: number | null) => (value === null ? '' : String(value));
  return {
    maxActiveActions: text(tenant.limits.maxActiveActions),
    createRate: text(tenant.limits.createRate),
    maxConcurrency: text(tenant.limits.maxConcurrency),
  };
}

function newTenantForm(data: TenantsPageData): SafeHtml {
  return html`<section aria-labelledby="new-tenant">
    <h2 id="new-tenant">Create a tenant</h2>
    <form method="post" action="/admin/tenants" class="filters">
      ${csrfField(data.csrfToken)}
      <div class="field">
        <label for="new-tenant-id">Id</label>
        <input
          id="new-tenant-id"
          name="id"
          value="${data.newTenant.id}"
          required
          maxlength="64"
          pattern="[a-z0-9\\-]{1,64}"
          title="${TENANT_ID_RULE}"
          autocomplete="off"
          spellcheck="false"
        />
      </div>
      ${limitFields('new-tenant', data.newTenant.limits, data.defaults)}
      <div class="field field-actions"><button type="submit">Create tenant</button></div>
      <p class="hint">The id is ${TENANT_ID_RULE}, and the tenant's for good. A limit left empty follows the deployment's default.</p>
    </form>
  </section>`;
}

/** The secret of the key just made, shown on this page alone: it is never put in a URL, and cannot be read back. */
function newKeyBox(newKey: TenantsPageData['newKey']): SafeHtml {
  if (!newKey) return html``;
  const { tenant, key } = newKey;
  return html`<section class="new-key" data-new-key="${key.keyId}" aria-labelledby="new-key">
    <h2 id="new-key">New key of tenant <code>${tenant}</code></h2>
    <p class="warning">
      This secret is shown only now. Copy it into the client's configuration: it is stored encrypted and cannot be shown again. If it is lost, make another
      key and revoke this one.
    </p>
    <dl class="facts">
      ${fact('Key id', html`<code data-key-id>${key.keyId}</code>`)} ${fact('Secret', html`<code class="secret" data-secret>${key.secret}</code>`)}
    </dl>
  </section>`;
}

/** Every tenant with its quota use, limits, messaging and keys; creating tenants, changing limits and messaging, making and revoking keys. */
export function tenantsView(data: TenantsPageData): SafeHtml {
  return html`<h1>Tenants</h1>
    ${newKeyBox(data.newKey)}
    <p class="muted">
      Every API key belongs to a tenant, and a request sees only its tenant's actions, calendars and webhooks. A tenant's creates are held to its limits,
      its own or the deployment's. Keys made here reach every API process within seconds, and so does their revocation; keys of <code>API_KEYS</code> are
      changed in the environment.
    </p>
    ${newTenantForm(data)} ${data.tenants.map((tenant) => tenantSection(tenant, data))}`;
}
