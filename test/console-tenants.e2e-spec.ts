import { Browser, BrowserContext, Page } from 'playwright-core';
import { SignedHttp } from '@punctual/client';
import { OTHER_TENANT_KEY, TestHttp } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { restActions } from './support/console-actions';
import { basicAuth, consoleContext, launchChromium } from './support/console-browser';
import { emptyTables, httpRequestExample, notificationExample } from './support/fixtures';
import { subscribe } from './support/webhooks';

/** Tenants outlive a spec's cleaning of the tables: each run names its own. */
const run = Math.random().toString(36).slice(2, 8);
const OTHER_TENANT = 'team-b';

/**
 * Operators see everything (contract §13): every console page can be limited to one tenant, and
 * each action names its tenant.
 */
describe('Operator console tenants (in Chromium)', () => {
  let api: ApiTestApp;
  let other: TestHttp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    [api, browser] = await Promise.all([startCleanApiApp(), launchChromium()]);
    other = new SignedHttp<any>({ baseUrl: api.client.baseUrl, ...OTHER_TENANT_KEY });
  });
  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  beforeEach(async () => {
    await emptyTables(api.db);
    context = await consoleContext(browser, api.client.baseUrl);
    page = await context.newPage();
  });
  afterEach(() => context.close());

  const shownActions = async () => (await page.locator('table.actions tbody a').evaluateAll((links) => links.map((a) => a.getAttribute('title')))).sort();
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
    await expect(page.locator('[data-every-tenant]').count()).resolves.toBe(0);
    await page.getByLabel('Tenant', { exact: true }).selectOption(OTHER_TENANT);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL('**/admin?tenant=team-b');
    await expect(tile('PENDING')).resolves.toBe('1');
    await expect(tile('FAILED')).resolves.toBe('1');
    await expect(page.locator('#by-status').textContent()).resolves.toContain('2 of tenant team-b');
    // The overdue actions and the last hour are of every tenant, and say so.
    await expect(page.locator('[data-every-tenant]').count()).resolves.toBe(2);
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
});
