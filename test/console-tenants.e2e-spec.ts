import { Browser, BrowserContext, Page } from 'playwright-core';
import { SignedHttp } from '@punctual/client';
import { PunctualConfig } from '@app/config';
import { OTHER_TENANT_KEY, TestHttp, waitUntil } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { adminApi } from './support/admin-api';
import { restActions } from './support/console-actions';
import { basicAuth, consoleContext, launchChromium } from './support/console-browser';
import { emptyTables, httpRequestExample, notificationExample } from './support/fixtures';
import { subscribe } from './support/webhooks';

/** How soon every API process must refuse a revoked key (contract §13). */
const REVOCATION_DEADLINE_MS = 5_000;

/** Tenants outlive a spec's cleaning of the tables: each run names its own. */
const run = Math.random().toString(36).slice(2, 8);
const OTHER_TENANT = 'team-b';

/**
 * Operators see everything (contract §13): every console page can be limited to one tenant, each
 * action names its tenant, and the tenants page shows each tenant's quota use, limits and keys, and
 * creates tenants, changes limits, makes keys (the secret shown once) and revokes them, through the
 * same service and validation as the admin API.
 */
describe('Operator console tenants (in Chromium)', () => {
  let api: ApiTestApp;
  let other: TestHttp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  /** The deployment's limits, which a tenant without its own follows, as the page writes numbers. */
  let defaults: { maxActiveActions: string; createRate: string };

  beforeAll(async () => {
    [api, browser] = await Promise.all([startCleanApiApp(), launchChromium()]);
    other = new SignedHttp<any>({ baseUrl: api.client.baseUrl, ...OTHER_TENANT_KEY });
    const { maxActiveActions, createRate } = api.app.get(PunctualConfig).tenantDefaults;
    defaults = { maxActiveActions: maxActiveActions.toLocaleString('en-US'), createRate: createRate.toLocaleString('en-US') };
  });
  afterAll(async () => {
    // Tenants outlive the spec: the default's reach goes back to every transport and pattern.
    if (api) expect((await adminApi(api.client.baseUrl, 'PATCH', '/tenants/default', { messaging: null })).status).toBe(200);
    await browser?.close();
    await api?.close();
  });

  beforeEach(async () => {
    await emptyTables(api.db);
    context = await consoleContext(browser, api.client.baseUrl);
    page = await context.newPage();
  });
  afterEach(() => context.close());

  const admin = (method: string, path: string, body?: unknown) => adminApi(api.client.baseUrl, method, path, body);

  const shownActions = async () => (await page.locator('table.actions tbody a').evaluateAll((links) => links.map((a) => a.getAttribute('title')))).sort();
  const tenantSection = (id: string) => page.locator(`section.tenant[data-tenant="${id}"]`);
  const limitRow = (id: string, limit: string) => tenantSection(id).locator(`tr[data-limit="${limit}"]`);
  const tile = (status: string) =>
    page
      .locator('.tiles li', { has: page.locator(`[data-status="${status}"]`) })
      .locator('.tile-count')
      .textContent();
  const posted = (path: string) => page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === path);

  /** Clicks a button that asks for confirmation first, accepting it, and answers what it asked. */
  async function clickConfirmed(button: ReturnType<Page['getByRole']>): Promise<string> {
    let asked = '';
    page.once('dialog', (dialog) => {
      asked = dialog.message();
      void dialog.accept();
    });
    await button.click();
    return asked;
  }

  it('limits the actions list to one tenant, keeping the other filters, and names each action’s tenant', async () => {
    const mine = await restActions(api.client).create(notificationExample());
    const theirs = await restActions(other).create(notificationExample());
    const theirsOnce = await restActions(other).create(httpRequestExample());

    await page.goto('/admin/actions');
    expect(await shownActions()).toEqual([mine, theirs, theirsOnce].sort());
    const row = (id: string) => page.locator('table.actions tbody tr', { has: page.locator(`a[title="${id}"]`) });
    await expect(row(mine).locator('td.tenant').textContent()).resolves.toBe('default');
    await expect(row(theirs).locator('td.tenant').textContent()).resolves.toBe(OTHER_TENANT);

    await page.getByLabel('Tenant', { exact: true }).selectOption(OTHER_TENANT);
    await page.getByLabel('Type', { exact: true }).selectOption('SEND_NOTIFICATION');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/tenant=team-b/);
    expect(new URL(page.url()).searchParams.get('action')).toBe('SEND_NOTIFICATION');
    expect(await shownActions()).toEqual([theirs]);
    await expect(page.getByLabel('Tenant', { exact: true }).inputValue()).resolves.toBe(OTHER_TENANT);

    await page.goto('/admin/actions?tenant=default');
    expect(await shownActions()).toEqual([mine]);

    // An action's page names its tenant, and leads to that tenant's actions.
    await page.goto(`/admin/actions/${theirs}`);
    const tenantFact = page.locator('#live-action dt:text-is("Tenant") + dd');
    await expect(tenantFact.textContent()).resolves.toBe(OTHER_TENANT);
    await tenantFact.getByRole('link').click();
    await page.waitForURL('**/admin/actions?tenant=team-b');
    expect(await shownActions()).toEqual([theirs, theirsOnce].sort());
  });

  it('limits the overview’s counts, the dead letters and the webhooks to one tenant, and the navigation keeps it', async () => {
    await restActions(api.client).create(notificationExample());
    await restActions(other).create(notificationExample());
    const failed = await restActions(other).create(httpRequestExample());
    const myFailed = await restActions(api.client).create(httpRequestExample());
    await api.db.query(`UPDATE actions SET status = 'FAILED', finished_at = now() WHERE id = ANY($1)`, [[failed, myFailed]]);
    const mySubscription = await subscribe(api.client, 'http://127.0.0.1:9/mine');
    const theirSubscription = await subscribe(other, 'http://127.0.0.1:9/theirs');

    await page.goto('/admin');
    await expect(tile('PENDING')).resolves.toBe('2');
    await expect(page.locator('#overdue').textContent()).resolves.toBe('Overdue');
    await page.getByLabel('Tenant', { exact: true }).selectOption(OTHER_TENANT);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL('**/admin?tenant=team-b');
    await expect(tile('PENDING')).resolves.toBe('1');
    await expect(tile('FAILED')).resolves.toBe('1');
    await expect(page.locator('#by-status').textContent()).resolves.toContain('2 of tenant team-b');
    // The overdue actions and the last hour are of that tenant too, and say so.
    await expect(page.locator('#overdue').textContent()).resolves.toBe('Overdue (of tenant team-b)');
    await expect(page.locator('#last-hour').textContent()).resolves.toBe('Last hour (of tenant team-b)');
    await page.goto('/admin?tenant=default');
    await expect(tile('PENDING')).resolves.toBe('1');
    await expect(tile('FAILED')).resolves.toBe('1');

    await page.goto('/admin?tenant=team-b');
    await page.getByRole('link', { name: 'Dead letters' }).click();
    await page.waitForURL('**/admin/dead-letters?tenant=team-b');
    await page.getByRole('link', { name: 'HTTP_REQUEST' }).click();
    await page.waitForURL('**/admin/dead-letters/HTTP_REQUEST?tenant=team-b');
    expect(await shownActions()).toEqual([failed]);
    await expect(page.locator('h1').textContent()).resolves.toContain('(1 of tenant team-b)');
    // Retrying them all retries this tenant's alone.
    await page.getByRole('link', { name: 'Retry all 1…' }).click();
    await page.waitForURL('**/admin/dead-letters/HTTP_REQUEST/retry-all?tenant=team-b');
    await expect(page.locator('form.confirm').textContent()).resolves.toMatch(/puts\s+1\s+FAILED HTTP_REQUEST action of tenant team-b back to PENDING/);
    await page.getByRole('button', { name: 'Retry all 1' }).click();
    await page.waitForURL('**/admin/dead-letters/HTTP_REQUEST?tenant=team-b&retried=1&skipped=0');
    await expect(page.getByRole('status').textContent()).resolves.toContain('Retried 1 action');
    expect((await other.get(`/actions/${failed}`)).body.status).toBe('PENDING');
    expect((await api.client.get(`/actions/${myFailed}`)).body.status).toBe('FAILED');

    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.waitForURL('**/admin/webhooks?tenant=team-b');
    await expect(page.locator('[data-subscription]').evaluateAll((sections) => sections.map((s) => s.getAttribute('data-subscription')))).resolves.toEqual(
      [theirSubscription.id],
    );
    await expect(page.locator('[data-subscription] dt:text-is("Tenant") + dd').textContent()).resolves.toBe(OTHER_TENANT);
    await page.goto('/admin/webhooks');
    await expect(page.locator('[data-subscription]').count()).resolves.toBe(2);
    await page.goto('/admin/webhooks?tenant=default');
    await expect(page.locator('[data-subscription]').evaluateAll((sections) => sections.map((s) => s.getAttribute('data-subscription')))).resolves.toEqual(
      [mySubscription.id],
    );
  });

  it('answers a tenant filter that is no tenant’s id, or names no tenant, with a 400 page', async () => {
    for (const [path, message] of [
      ['/admin/actions?tenant=Team_B', /tenant must be a tenant(&#39;|')s id: 1–64 characters of a–z, 0–9 and -/],
      [`/admin?tenant=nobody-${run}`, new RegExp(`tenant must name a tenant: there is no tenant nobody-${run}`)],
      [`/admin/dead-letters?tenant=nobody-${run}`, /there is no tenant/],
      [`/admin/dead-letters/HTTP_REQUEST?tenant=nobody-${run}`, /there is no tenant/],
      [`/admin/webhooks?tenant=nobody-${run}`, /there is no tenant/],
      [`/admin/calendars?tenant=nobody-${run}`, /there is no tenant/],
      ['/admin/calendars?tenant=a&tenant=b', /tenant must be given once/],
    ] as const) {
      const response = await fetch(`${api.client.baseUrl}${path}`, { headers: basicAuth() });
      expect({ path, status: response.status }).toEqual({ path, status: 400 });
      expect(await response.text()).toMatch(message);
    }
  });

  it('keeps calendars by tenant: creates one for the tenant chosen, lists by tenant, refuses an unknown tenant, deletes by tenant', async () => {
    expect((await api.client.put('/calendars/office', { dates: ['2027-12-24'] })).status).toBe(200);
    await page.goto('/admin/calendars?tenant=team-b');
    await expect(page.locator('[data-calendar]').count()).resolves.toBe(0);
    // The form makes the filtered tenant's calendar unless told otherwise.
    const tenantField = page.locator('#put-calendar-tenant');
    await expect(tenantField.inputValue()).resolves.toBe(OTHER_TENANT);
    await page.getByLabel('Name', { exact: true }).fill('office');
    await page.getByLabel('Dates', { exact: true }).fill('2027-01-01');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL('**/admin/calendars?tenant=team-b&saved=office');
    await expect(page.getByRole('status').textContent()).resolves.toContain('Saved calendar office of tenant team-b');
    await expect(page.locator('[data-calendar="office"]').evaluateAll((s) => s.map((c) => c.getAttribute('data-tenant')))).resolves.toEqual([
      OTHER_TENANT,
    ]);
    expect((await other.get('/calendars/office')).body.dates).toEqual(['2027-01-01']);
    expect((await api.client.get('/calendars/office')).body.dates).toEqual(['2027-12-24']);

    await page.goto('/admin/calendars');
    await expect(page.locator('[data-calendar="office"]').evaluateAll((s) => s.map((c) => c.getAttribute('data-tenant')).sort())).resolves.toEqual([
      'default',
      OTHER_TENANT,
    ]);

    // A tenant that is not (any longer) one, sent past the list the form offers.
    const before = await api.db.query(`SELECT tenant_id, name FROM calendars ORDER BY tenant_id, name`);
    for (const [tenant, status, reason] of [
      [`gone-${run}`, 404, `Tenant gone-${run} not found`],
      ['Not A Tenant', 400, 'tenant must be 1–64 characters of a–z, 0–9 and -'],
    ] as const) {
      await tenantField.evaluate((select: HTMLSelectElement, value) => {
        select.add(new Option(value, value, true, true));
      }, tenant);
      await page.getByLabel('Name', { exact: true }).fill('elsewhere');
      await page.getByLabel('Dates', { exact: true }).fill('2027-01-01');
      const refused = posted('/admin/calendars');
      await page.getByRole('button', { name: 'Save' }).click();
      expect((await refused).status()).toBe(status);
      await expect(page.getByRole('alert').textContent()).resolves.toContain(reason);
      await expect(page.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe('elsewhere');
    }
    expect(await api.db.query(`SELECT tenant_id, name FROM calendars ORDER BY tenant_id, name`)).toEqual(before);

    // Deleting names the tenant: the default tenant's calendar of the same name stays.
    await page.goto('/admin/calendars');
    const deleted = posted('/admin/calendars/team-b/office/delete');
    const asked = await clickConfirmed(
      page.locator('[data-calendar="office"][data-tenant="team-b"]').getByRole('button', { name: 'Delete office of team-b' }),
    );
    expect(asked).toContain('Delete calendar office of tenant team-b?');
    expect((await deleted).status()).toBe(303);
    await page.waitForURL('**/admin/calendars?tenant=team-b&deleted=office');
    await expect(page.getByRole('status').textContent()).resolves.toContain('Deleted calendar office of tenant team-b.');
    expect((await other.get('/calendars/office')).status).toBe(404);
    expect((await api.client.get('/calendars/office')).status).toBe(200);
  });

  it('lists every tenant with its keys of API_KEYS and its active actions against its quota', async () => {
    await restActions(api.client).create(notificationExample());
    await restActions(api.client).create(httpRequestExample());
    const done = await restActions(api.client).create(httpRequestExample());
    await api.db.query(`UPDATE actions SET status = 'COMPLETED', finished_at = now() WHERE id = $1`, [done]);
    await restActions(other).create(notificationExample());

    await page.goto('/admin');
    await page.getByRole('link', { name: 'Tenants' }).click();
    await page.waitForURL('**/admin/tenants');
    const listed = await page.locator('section.tenant').evaluateAll((sections) => sections.map((s) => s.getAttribute('data-tenant')));
    expect(listed).toEqual(expect.arrayContaining(['default', OTHER_TENANT]));
    expect(listed).toEqual([...listed].sort());

    const keysOf = (id: string) =>
      tenantSection(id)
        .locator('tr[data-key]')
        .evaluateAll((rows) => rows.map((r) => `${r.getAttribute('data-key')}:${r.getAttribute('data-source')}`));
    await expect(keysOf('default')).resolves.toEqual(['test-key:environment', 'rotated-key:environment']);
    await expect(keysOf(OTHER_TENANT)).resolves.toEqual(['other-tenant-key:environment']);
    // A key of API_KEYS is retired in the environment, not here.
    await expect(
      tenantSection('default')
        .getByRole('button', { name: /Revoke/ })
        .count(),
    ).resolves.toBe(0);

    // The COMPLETED action is not active; the quota is the deployment's default.
    await expect(tenantSection('default').locator('[data-quota]').textContent()).resolves.toBe(`2 of ${defaults.maxActiveActions}`);
    await expect(tenantSection(OTHER_TENANT).locator('[data-quota]').textContent()).resolves.toBe(`1 of ${defaults.maxActiveActions}`);
    await expect(limitRow('default', 'maxActiveActions').getAttribute('data-set-by')).resolves.toBe('default');
    await expect(limitRow('default', 'createRate').locator('[data-value]').textContent()).resolves.toBe(defaults.createRate);
    await expect(page.locator('main').textContent()).resolves.not.toContain(OTHER_TENANT_KEY.secret);
  });

  it('creates a tenant with its limits, changes one, and refuses a bad id, a taken id and a bad limit, changing nothing', async () => {
    const id = `console-${run}`;
    await page.goto('/admin/tenants');
    const create = page.locator('form[action="/admin/tenants"]');
    await create.getByLabel('Id').fill(id);
    await create.getByLabel('Active actions').fill('500');
    await create.getByRole('button', { name: 'Create tenant' }).click();
    await page.waitForURL(`**/admin/tenants?created=${id}#tenant-${id}`);
    await expect(page.getByRole('status').textContent()).resolves.toContain(`Created tenant ${id}.`);
    await expect(tenantSection(id).locator('[data-quota]').textContent()).resolves.toBe('0 of 500');
    await expect(limitRow(id, 'maxActiveActions').getAttribute('data-set-by')).resolves.toBe('own');
    await expect(limitRow(id, 'createRate').getAttribute('data-set-by')).resolves.toBe('default');
    await expect(tenantSection(id).locator('tr[data-key]').count()).resolves.toBe(0);
    expect((await admin('GET', `/tenants/${id}`)).body.limits).toEqual({ maxActiveActions: 500, createRate: null, maxConcurrency: null });

    // Emptying a field sets the default back; a filled one is the tenant's own.
    const limits = tenantSection(id).locator(`form[action="/admin/tenants/${id}/limits"]`);
    await expect(limits.getByLabel('Active actions').inputValue()).resolves.toBe('500');
    await limits.getByLabel('Active actions').fill('');
    await limits.getByLabel('Create rate').fill('20');
    await limits.getByRole('button', { name: `Save the limits of ${id}` }).click();
    await page.waitForURL(`**/admin/tenants?changed=${id}#tenant-${id}`);
    await expect(page.getByRole('status').textContent()).resolves.toContain(`Saved the limits of tenant ${id}`);
    await expect(limitRow(id, 'maxActiveActions').getAttribute('data-set-by')).resolves.toBe('default');
    await expect(limitRow(id, 'maxActiveActions').locator('[data-value]').textContent()).resolves.toBe(defaults.maxActiveActions);
    await expect(limitRow(id, 'createRate').locator('[data-value]').textContent()).resolves.toBe('20');
    await expect(limitRow(id, 'createRate').getAttribute('data-set-by')).resolves.toBe('own');
    const stored = await admin('GET', `/tenants/${id}`);
    expect(stored.body.limits).toEqual({ maxActiveActions: null, createRate: 20, maxConcurrency: null });

    // The fields' own bounds stop the browser; the admin API's validation refuses what gets past them.
    await limits.getByLabel('Create rate').evaluate((input: HTMLInputElement) => input.removeAttribute('min'));
    await limits.getByLabel('Create rate').fill('0');
    const refusedLimit = posted(`/admin/tenants/${id}/limits`);
    await limits.getByRole('button', { name: `Save the limits of ${id}` }).click();
    expect((await refusedLimit).status()).toBe(400);
    await expect(page.getByRole('alert').textContent()).resolves.toContain('limits.createRate must not be less than 1');
    await expect(limits.getByLabel('Create rate').inputValue()).resolves.toBe('0');
    expect(await admin('GET', `/tenants/${id}`)).toEqual(stored);

    const tenantsBefore = (await admin('GET', '/tenants')).body;
    await create.getByLabel('Id').evaluate((input: HTMLInputElement) => input.removeAttribute('pattern'));
    await create.getByLabel('Id').fill(`Bad_${run}`);
    const refusedId = posted('/admin/tenants');
    await create.getByRole('button', { name: 'Create tenant' }).click();
    expect((await refusedId).status()).toBe(400);
    await expect(page.getByRole('alert').textContent()).resolves.toContain('id must be 1–64 characters of a–z, 0–9 and -');
    await expect(create.getByLabel('Id').inputValue()).resolves.toBe(`Bad_${run}`);

    await create.getByLabel('Id').fill(id);
    await create.getByLabel('Active actions').fill('7');
    const taken = posted('/admin/tenants');
    await create.getByRole('button', { name: 'Create tenant' }).click();
    expect((await taken).status()).toBe(409);
    await expect(page.getByRole('alert').textContent()).resolves.toContain(`Tenant ${id} exists already`);
    expect((await admin('GET', '/tenants')).body).toEqual(tenantsBefore);
  });

  it('shows what each tenant may message and sets it through the admin API’s validation; a refusal keeps what was typed and changes nothing', async () => {
    const id = `messaging-${run}`;
    expect((await admin('POST', '/tenants', { id })).status).toBe(201);
    await page.goto('/admin/tenants');
    await expect(tenantSection('default').locator('[data-messaging]').getAttribute('data-messaging')).resolves.toBe('everything');
    await expect(tenantSection(id).locator('[data-messaging]').getAttribute('data-messaging')).resolves.toBe('granted');
    await expect(tenantSection(id).locator('[data-patterns]').textContent()).resolves.toBe('none');

    const form = tenantSection(id).locator(`form[action="/admin/tenants/${id}/messaging"]`);
    await form.getByLabel('Transports').fill('default');
    await form.getByLabel('Patterns').fill('billing.\n\n  audit.record \n');
    await form.getByRole('button', { name: `Save the messaging of ${id}` }).click();
    await page.waitForURL(`**/admin/tenants?messaging=${id}#tenant-${id}`);
    await expect(page.getByRole('status').textContent()).resolves.toContain(`Saved what tenant ${id} may message`);
    await expect(tenantSection(id).locator('[data-transports] code').allTextContents()).resolves.toEqual(['default']);
    await expect(tenantSection(id).locator('[data-patterns] code').allTextContents()).resolves.toEqual(['billing.', 'audit.record']);
    const stored = await admin('GET', `/tenants/${id}`);
    expect(stored.body.messaging).toEqual({ transports: ['default'], patterns: ['billing.', 'audit.record'] });
    await expect(form.getByLabel('Patterns').inputValue()).resolves.toBe('billing.\naudit.record');

    await form.getByLabel('Transports').fill('default, nowhere');
    const refused = posted(`/admin/tenants/${id}/messaging`);
    await form.getByRole('button', { name: `Save the messaging of ${id}` }).click();
    expect((await refused).status()).toBe(400);
    await expect(page.getByRole('alert').textContent()).resolves.toContain('messaging.transports.1: transport "nowhere" is not configured');
    await expect(form.getByLabel('Transports').inputValue()).resolves.toBe('default, nowhere');
    expect(await admin('GET', `/tenants/${id}`)).toEqual(stored);

    // The default is limited like any tenant, and can be given every transport and pattern back.
    const defaults = tenantSection('default').locator('form[action="/admin/tenants/default/messaging"]');
    await defaults.getByLabel('Transports').fill('default');
    await defaults.getByLabel('Patterns').fill('billing.');
    await defaults.getByRole('button', { name: 'Save the messaging of default' }).click();
    await page.waitForURL('**/admin/tenants?messaging=default#tenant-default');
    expect((await admin('GET', '/tenants/default')).body.messaging).toEqual({ transports: ['default'], patterns: ['billing.'] });
    await tenantSection('default').getByRole('button', { name: 'Let default message every transport and pattern' }).click();
    await page.waitForURL('**/admin/tenants?messaging=default#tenant-default');
    expect((await admin('GET', '/tenants/default')).body.messaging).toBeNull();
    await expect(tenantSection('default').locator('[data-messaging]').getAttribute('data-messaging')).resolves.toBe('everything');
  });

  it('makes a key whose secret is shown once and signs requests; revoked, it is refused within 5 s', async () => {
    const id = `keys-${run}`;
    expect((await admin('POST', '/tenants', { id })).status).toBe(201);
    await page.goto('/admin/tenants');

    // Post/redirect/get: the POST makes the key and sends the browser on; the page it lands on shows the secret.
    const made = posted(`/admin/tenants/${id}/keys`);
    const shown = page.waitForResponse((r) => r.request().method() === 'GET' && new URL(r.url()).pathname === '/admin/tenants');
    await tenantSection(id)
      .getByRole('button', { name: `Make a key for ${id}` })
      .click();
    expect((await made).status()).toBe(303);
    // The page holds the secret: no cache along the way may keep it.
    expect((await shown).headers()['cache-control']).toBe('no-store');
    const box = page.locator('[data-new-key]');
    await expect(box.textContent()).resolves.toContain('shown only now');
    const keyId = (await box.locator('[data-key-id]').textContent())!;
    const secret = (await box.locator('[data-secret]').textContent())!;
    expect(secret.length).toBeGreaterThanOrEqual(32);
    // Never in a URL: the redirect names the key, not its secret.
    expect(page.url()).toBe(`${api.client.baseUrl}/admin/tenants?key=${keyId}#tenant-${id}`);
    expect((await made).headers().location).not.toContain(secret);
    await expect(tenantSection(id).locator(`tr[data-key="${keyId}"]`).getAttribute('data-source')).resolves.toBe('admin');

    // A reload shows the secret no more, and makes no other key.
    await page.reload();
    await expect(page.getByRole('status').textContent()).resolves.toContain(`Made key ${keyId} for tenant ${id}. Its secret is shown only once`);
    await expect(page.locator('[data-new-key]').count()).resolves.toBe(0);
    expect(await page.content()).not.toContain(secret);
    expect((await admin('GET', `/tenants/${id}`)).body.keys.map((key: { keyId: string }) => key.keyId)).toEqual([keyId]);

    const signed = new SignedHttp<any>({ baseUrl: api.client.baseUrl, keyId, secret });
    const created = await signed.post('/actions', httpRequestExample());
    expect(created.status).toBe(201);
    const [row] = await api.db.query(`SELECT tenant_id FROM actions WHERE id = $1`, [created.body.id]);
    expect(row.tenant_id).toBe(id);
    expect((await api.client.get(`/actions/${created.body.id}`)).status).toBe(404);

    await page.goto('/admin/tenants');
    await expect(tenantSection(id).locator('[data-quota]').textContent()).resolves.toBe(`1 of ${defaults.maxActiveActions}`);

    const revoked = posted(`/admin/tenants/${id}/keys/${keyId}/revoke`);
    const asked = await clickConfirmed(tenantSection(id).getByRole('button', { name: `Revoke ${keyId}` }));
    expect(asked).toContain(`Revoke key ${keyId} of tenant ${id}?`);
    expect((await revoked).status()).toBe(303);
    const revokedAt = Date.now();
    await page.waitForURL(`**/admin/tenants?revoked=${keyId}#tenant-${id}`);
    await expect(page.getByRole('status').textContent()).resolves.toContain(`Revoked key ${keyId}`);
    await expect(tenantSection(id).locator('tr[data-key]').count()).resolves.toBe(0);
    await waitUntil(
      'requests signed with the revoked key to be refused',
      async () => (await signed.get('/actions')).status === 401,
      REVOCATION_DEADLINE_MS,
    );
    expect(Date.now() - revokedAt).toBeLessThan(REVOCATION_DEADLINE_MS);
  });

  it('shows a new key’s secret to the console session that made it alone, and once', async () => {
    const id = `reveal-${run}`;
    expect((await admin('POST', '/tenants', { id })).status).toBe(201);
    const origin = api.client.baseUrl;
    const visit = async () => {
      const response = await fetch(`${origin}/admin/tenants`, { headers: basicAuth() });
      return { cookie: response.headers.get('set-cookie')!.split(';')[0], token: /name="_csrf" value="([^"]+)"/.exec(await response.text())![1] };
    };
    const [maker, other] = [await visit(), await visit()];
    const made = await fetch(`${origin}/admin/tenants/${id}/keys`, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...basicAuth(), cookie: maker.cookie, origin, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: maker.token }).toString(),
    });
    expect(made.status).toBe(303);
    expect(made.headers.get('set-cookie')).toBeNull();
    await expect(made.text()).resolves.not.toMatch(/data-secret/);
    const shownTo = async (session: { cookie: string }) => {
      const response = await fetch(`${origin}${made.headers.get('location')}`, { headers: { ...basicAuth(), cookie: session.cookie } });
      expect(response.headers.get('cache-control')).toBe('no-store');
      return /data-secret>([^<]+)</.exec(await response.text())?.[1] ?? null;
    };

    expect(await shownTo(other)).toBeNull();
    const secret = await shownTo(maker);
    expect(secret).toEqual(expect.any(String));
    expect(await shownTo(maker)).toBeNull();
    const [{ keyId }] = (await admin('GET', `/tenants/${id}`)).body.keys;
    expect((await new SignedHttp<any>({ baseUrl: origin, keyId, secret: secret! }).get('/actions')).status).toBe(200);
  });

  it('shows the admin API’s refusals of keys with their status: unknown key 404, a key of API_KEYS 409, an unknown tenant 404', async () => {
    const visit = await fetch(`${api.client.baseUrl}/admin/tenants`, { headers: basicAuth() });
    const cookie = visit.headers.get('set-cookie')!.split(';')[0];
    const token = /name="_csrf" value="([^"]+)"/.exec(await visit.text())![1];
    const before = (await admin('GET', '/tenants')).body;
    for (const [path, status, reason] of [
      [`/admin/tenants/${OTHER_TENANT}/keys/key_0000/revoke`, 404, `Tenant ${OTHER_TENANT} has no API key key_0000 to revoke`],
      [`/admin/tenants/${OTHER_TENANT}/keys/${OTHER_TENANT_KEY.keyId}/revoke`, 409, 'is configured in API_KEYS'],
      [`/admin/tenants/nobody-${run}/keys`, 404, `Tenant nobody-${run} not found`],
      [`/admin/tenants/nobody-${run}/limits`, 404, `Tenant nobody-${run} not found`],
      ['/admin/tenants/Not_A_Tenant/keys', 400, 'id must be a tenant&#39;s id: 1–64 characters of a–z, 0–9 and -'],
    ] as const) {
      const response = await fetch(`${api.client.baseUrl}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { ...basicAuth(), cookie, origin: api.client.baseUrl, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: token, maxActiveActions: '5' }).toString(),
      });
      expect({ path, status: response.status }).toEqual({ path, status });
      expect(await response.text()).toContain(reason);
    }
    expect((await admin('GET', '/tenants')).body).toEqual(before);
  });

  it('refuses a forged POST without the CSRF token, and changes nothing', async () => {
    const id = `csrf-${run}`;
    expect((await admin('POST', '/tenants', { id })).status).toBe(201);
    const key = (await admin('POST', `/tenants/${id}/keys`, {})).body;
    const before = (await admin('GET', '/tenants')).body;
    const origin = api.client.baseUrl;
    const visit = await fetch(`${origin}/admin/tenants`, { headers: basicAuth() });
    const cookie = visit.headers.get('set-cookie')!.split(';')[0];

    for (const [path, body] of [
      ['/admin/tenants', `id=forged-${run}`],
      [`/admin/tenants/${id}/limits`, 'maxActiveActions=1'],
      [`/admin/tenants/${id}/messaging`, 'transports=default&patterns=billing.'],
      [`/admin/tenants/${id}/keys`, ''],
      [`/admin/tenants/${id}/keys/${key.keyId}/revoke`, ''],
    ]) {
      const response = await fetch(`${origin}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { ...basicAuth(), cookie, origin, 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
      expect({ path, status: response.status }).toEqual({ path, status: 403 });
      expect(await response.text()).not.toMatch(/data-secret/);
    }
    expect((await admin('GET', '/tenants')).body).toEqual(before);
    expect((await admin('GET', `/tenants/forged-${run}`)).status).toBe(404);
    const signed = new SignedHttp<any>({ baseUrl: origin, keyId: key.keyId, secret: key.secret });
    expect((await signed.get('/actions')).status).toBe(200);
  });

  it('asks for the admin credentials, and is readable on a 390 px wide screen with every control labelled', async () => {
    // The longest id there can be, with a key of its own.
    const id = `${'w'.repeat(57)}-${run}`;
    expect((await admin('POST', '/tenants', { id, limits: { maxActiveActions: 1_000_000_000 } })).status).toBe(201);
    expect((await admin('POST', `/tenants/${id}/keys`, {})).status).toBe(201);
    const unauthenticated = await fetch(`${api.client.baseUrl}/admin/tenants`);
    expect(unauthenticated.status).toBe(401);
    await expect(unauthenticated.text()).resolves.not.toContain(id);

    await context.close();
    context = await consoleContext(browser, api.client.baseUrl, { width: 390 });
    page = await context.newPage();
    await page.goto('/admin/tenants');
    await tenantSection(id)
      .getByRole('button', { name: `Make a key for ${id}` })
      .click();
    await page.locator('[data-new-key]').waitFor();
    for (const path of [null, '/admin/calendars', `/admin/actions?tenant=${id}`]) {
      if (path) await page.goto(path);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect({ path, fits: width <= 390 }).toEqual({ path, fits: true });
      const unlabelled = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLInputElement>('input:not([type="hidden"]), select, textarea')]
          .filter((control) => control.labels?.length === 0 && !control.getAttribute('aria-label'))
          .map((control) => control.name),
      );
      expect(unlabelled).toEqual([]);
    }
  });
});
