import { Browser, BrowserContext, Page } from 'playwright-core';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { restActions } from './support/console-actions';
import { basicAuth, consoleContext, launchChromium } from './support/console-browser';
import { emptyTables, notificationExample } from './support/fixtures';

/**
 * The calendars page lists every calendar and creates, replaces and deletes them through the same
 * service and validation as `PUT` and `DELETE /calendars/:name`: a refusal shows the API's reason
 * with its status and stores nothing. An action's page names its calendar.
 */
describe('Operator console calendars (in Chromium)', () => {
  let api: ApiTestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    [api, browser] = await Promise.all([startCleanApiApp(), launchChromium()]);
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

  const storedCalendars = async () => (await api.client.get('/calendars')).body.items;
  const section = (name: string) => page.locator(`[data-calendar="${name}"]`);
  const daysOf = (name: string, year: number) => section(name).locator(`tr[data-year="${year}"] td`).allTextContents();
  const formPosted = () => page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/admin/calendars');

  async function fillForm(name: string, dates: string, description = ''): Promise<void> {
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel('Description', { exact: true }).fill(description);
    await page.getByLabel('Dates', { exact: true }).fill(dates);
  }

  /** Clicks a calendar's Delete, accepting the browser's confirmation, and answers what it asked. */
  async function clickDelete(name: string): Promise<string> {
    let asked = '';
    page.once('dialog', (dialog) => {
      asked = dialog.message();
      void dialog.accept();
    });
    await section(name)
      .getByRole('button', { name: `Delete ${name}` })
      .click();
    return asked;
  }

  it('creates a calendar through the form, lists its dates by year, and replaces them', async () => {
    await page.goto('/admin');
    await page.getByRole('link', { name: 'Calendars' }).click();
    await page.waitForURL('**/admin/calendars');
    await expect(page.locator('main').textContent()).resolves.toContain('No calendar.');

    await fillForm('de-holidays', '2027-12-25, 2027-01-01\n2028-01-01   2027-12-25,', 'Public holidays, Germany');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL('**/admin/calendars?tenant=default&saved=de-holidays');
    await expect(page.getByRole('status').textContent()).resolves.toContain('Saved calendar de-holidays of tenant default');
    await expect(section('de-holidays').locator('h2').textContent()).resolves.toBe('de-holidays');
    await expect(section('de-holidays').textContent()).resolves.toContain('Public holidays, Germany');
    await expect(section('de-holidays').locator('dt:text-is("Dates") + dd').textContent()).resolves.toBe('3');
    await expect(daysOf('de-holidays', 2027)).resolves.toEqual(['2', 'Fri 1 Jan, Sat 25 Dec']);
    await expect(daysOf('de-holidays', 2028)).resolves.toEqual(['1', 'Sat 1 Jan']);
    expect(await storedCalendars()).toEqual([
      { name: 'de-holidays', dates: ['2027-01-01', '2027-12-25', '2028-01-01'], description: 'Public holidays, Germany', updatedAt: expect.any(String) },
    ]);

    await fillForm('de-holidays', '2027-10-03');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL('**/admin/calendars?tenant=default&saved=de-holidays');
    await expect(daysOf('de-holidays', 2027)).resolves.toEqual(['1', 'Sun 3 Oct']);
    await expect(section('de-holidays').locator('tr[data-year="2028"]').count()).resolves.toBe(0);
    expect(await storedCalendars()).toEqual([{ name: 'de-holidays', dates: ['2027-10-03'], description: null, updatedAt: expect.any(String) }]);
  });

  it('loads an existing calendar into the form to edit it in place, and saves the change over it', async () => {
    expect((await api.client.put('/calendars/office', { dates: ['2027-12-24', '2027-12-31'], description: 'Office closed' })).status).toBe(200);
    await page.goto('/admin/calendars');
    await section('office').getByRole('link', { name: 'Edit office of default' }).click();
    await page.waitForURL('**/admin/calendars?tenant=default&name=office&edit=1#put-calendar');
    await expect(page.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe('office');
    await expect(page.getByLabel('Description', { exact: true }).inputValue()).resolves.toBe('Office closed');
    await expect(page.getByLabel('Dates', { exact: true }).inputValue()).resolves.toBe('2027-12-24\n2027-12-31');
    await expect(page.getByLabel('Tenant', { exact: true }).last().inputValue()).resolves.toBe('default');

    await page.getByLabel('Dates', { exact: true }).press('End');
    await page.getByLabel('Dates', { exact: true }).pressSequentially('\n2028-01-02');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL('**/admin/calendars?tenant=default&saved=office');
    expect(await storedCalendars()).toEqual([
      { name: 'office', dates: ['2027-12-24', '2027-12-31', '2028-01-02'], description: 'Office closed', updatedAt: expect.any(String) },
    ]);
    // Editing a calendar that does not exist answers 404, as showing it does.
    expect((await fetch(`${api.client.baseUrl}/admin/calendars?tenant=default&name=nope&edit=1`, { headers: basicAuth() })).status).toBe(404);
  });

  it('refuses a date that does not exist and a bad name with the API’s reasons, keeping the form and storing nothing', async () => {
    expect((await api.client.put('/calendars/office', { dates: ['2027-12-24'], description: 'Office closed' })).status).toBe(200);
    const before = await storedCalendars();
    await page.goto('/admin/calendars');

    await fillForm('office', '2027-12-24 2027-02-30');
    const refused = formPosted();
    await page.getByRole('button', { name: 'Save' }).click();
    expect((await refused).status()).toBe(400);
    await expect(page.getByRole('alert').textContent()).resolves.toContain('each value in dates must be a date that exists, as YYYY-MM-DD');
    await expect(page.getByLabel('Dates', { exact: true }).inputValue()).resolves.toBe('2027-12-24 2027-02-30');
    await expect(daysOf('office', 2027)).resolves.toEqual(['1', 'Fri 24 Dec']);

    // The field's own pattern stops the browser; the server refuses what gets past it.
    await page.getByLabel('Name', { exact: true }).evaluate((input: HTMLInputElement) => input.removeAttribute('pattern'));
    await fillForm('has space', '2027-12-31');
    const refusedName = formPosted();
    await page.getByRole('button', { name: 'Save' }).click();
    expect((await refusedName).status()).toBe(400);
    await expect(page.getByRole('alert').textContent()).resolves.toContain('name must be 1–64 characters of A–Z, a–z, 0–9, _ and -');
    expect(await storedCalendars()).toEqual(before);
  });

  it('refuses a new calendar past the tenant’s limit with 429 and the reason, storing nothing; replacing one still works', async () => {
    const names = Array.from({ length: 100 }, (_, i) => `cal-${String(i).padStart(3, '0')}`);
    await api.db.query(`INSERT INTO calendars (tenant_id, name) SELECT 'default', unnest($1::varchar[])`, [names]);
    await page.goto('/admin/calendars?tenant=default');

    await fillForm('one-too-many', '2027-12-24');
    const refused = formPosted();
    await page.getByRole('button', { name: 'Save' }).click();
    expect((await refused).status()).toBe(429);
    await expect(page.getByRole('alert').textContent()).resolves.toContain('Tenant default already has 100 calendars, the most a tenant may keep');
    expect((await api.client.get('/calendars/one-too-many')).status).toBe(404);

    await fillForm('cal-042', '2027-12-24');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL('**/admin/calendars?tenant=default&saved=cal-042');
    expect((await api.client.get('/calendars/cal-042')).body.dates).toEqual(['2027-12-24']);
  });

  it('shows an action’s calendar, refuses its deletion while the action names it, and deletes it after', async () => {
    expect((await api.client.put('/calendars/office', { dates: ['2027-12-24'] })).status).toBe(200);
    const id = await restActions(api.client).create(notificationExample(3_600_000, { calendar: 'office', timezone: 'Europe/Berlin' }));
    const plain = await restActions(api.client).create(notificationExample());

    await page.goto(`/admin/actions/${plain}`);
    await expect(page.locator('#live-action dt:text-is("Calendar")').count()).resolves.toBe(0);
    await page.goto(`/admin/actions/${id}`);
    await page.locator('#live-action dt:text-is("Calendar") + dd').getByRole('link', { name: 'office' }).click();
    await page.waitForURL('**/admin/calendars?tenant=default&name=office#calendar-default.office');

    const refused = page.waitForResponse((r) => r.url().endsWith('/admin/calendars/default/office/delete'));
    expect(await clickDelete('office')).toContain('Delete calendar office of tenant default?');
    expect((await refused).status()).toBe(409);
    await expect(page.getByRole('alert').textContent()).resolves.toContain('Calendar office is named by 1 action(s)');
    await expect(section('office').count()).resolves.toBe(1);
    expect((await api.client.get('/calendars/office')).status).toBe(200);

    expect((await api.client.delete(`/actions/${id}`)).status).toBe(204);
    await clickDelete('office');
    await page.waitForURL('**/admin/calendars?tenant=default&deleted=office');
    await expect(page.getByRole('status').textContent()).resolves.toContain('Deleted calendar office of tenant default.');
    await expect(section('office').count()).resolves.toBe(0);
    expect((await api.client.get('/calendars/office')).status).toBe(404);
  });

  it('shows 20 calendars a page in name order, with next and first page links that keep the tenant filter', async () => {
    const names = Array.from({ length: 23 }, (_, i) => `cal-${String(22 - i).padStart(2, '0')}`);
    await api.db.query(`INSERT INTO calendars (tenant_id, name) SELECT 'default', unnest($1::varchar[])`, [names]);
    await api.db.query(`INSERT INTO calendars (tenant_id, name) VALUES ('team-b', 'cal-00b')`);
    const sorted = [...names].sort();
    const shown = () => page.locator('[data-calendar]').evaluateAll((sections) => sections.map((s) => (s as HTMLElement).dataset.calendar));
    const pager = page.getByRole('navigation', { name: 'Pages' });

    await page.goto('/admin/calendars?tenant=default');
    expect(await shown()).toEqual(sorted.slice(0, 20));
    await expect(pager.getByRole('link', { name: 'First page' }).count()).resolves.toBe(0);
    await pager.getByRole('link', { name: 'Next page' }).click();
    await page.waitForURL(/\/admin\/calendars\?tenant=default&cursor=/);
    expect(await shown()).toEqual(sorted.slice(20));
    await expect(pager.getByRole('link', { name: 'Next page' }).count()).resolves.toBe(0);
    await pager.getByRole('link', { name: 'First page' }).click();
    await page.waitForURL('**/admin/calendars?tenant=default');
    expect(await shown()).toEqual(sorted.slice(0, 20));

    // Every tenant's, by name then tenant: team-b's calendar takes its place among default's.
    await page.goto('/admin/calendars');
    expect(await shown()).toEqual(['cal-00', 'cal-00b', ...sorted.slice(1, 19)]);
    await pager.getByRole('link', { name: 'Next page' }).click();
    await page.waitForURL(/\/admin\/calendars\?cursor=/);
    expect(await shown()).toEqual(sorted.slice(19));

    // A calendar past the first page is reached from an action's page all the same.
    const id = await restActions(api.client).create(notificationExample(3_600_000, { calendar: 'cal-22' }));
    await page.goto(`/admin/actions/${id}`);
    await page.locator('#live-action dt:text-is("Calendar") + dd').getByRole('link', { name: 'cal-22' }).click();
    await page.waitForURL('**/admin/calendars?tenant=default&name=cal-22#calendar-default.cal-22');
    expect(await shown()).toEqual(['cal-22']);
    await pager.getByRole('link', { name: 'Every calendar' }).click();
    await page.waitForURL('**/admin/calendars?tenant=default');

    const forged = await page.goto('/admin/calendars?tenant=default&cursor=forged');
    expect(forged?.status()).toBe(400);
    await expect(page.locator('main').textContent()).resolves.toContain('cursor is not valid');
    const unknown = await page.goto('/admin/calendars?tenant=default&name=nowhere');
    expect(unknown?.status()).toBe(404);
    await expect(page.locator('main').textContent()).resolves.toContain('Calendar nowhere not found');
  });

  it('answers 404 with the reason when the calendar was deleted since the page was drawn', async () => {
    expect((await api.client.put('/calendars/gone', { dates: [] })).status).toBe(200);
    await page.goto('/admin/calendars');
    expect((await api.client.delete('/calendars/gone')).status).toBe(204);

    const refused = page.waitForResponse((r) => r.url().endsWith('/admin/calendars/default/gone/delete'));
    await clickDelete('gone');
    expect((await refused).status()).toBe(404);
    await expect(page.getByRole('alert').textContent()).resolves.toContain('Calendar gone not found');
    await expect(section('gone').count()).resolves.toBe(0);
  });

  it('asks for the admin credentials, and is readable on a 390 px wide screen with every control labelled', async () => {
    // The longest name there can be, and 40 dates of one year on a single row.
    const name = 'office-closures-'.padEnd(64, 'x');
    const dates = Array.from({ length: 40 }, (_, i) => new Date(Date.UTC(2027, 0, 1 + i * 9)).toISOString().slice(0, 10));
    expect((await api.client.put(`/calendars/${name}`, { dates })).status).toBe(200);
    const unauthenticated = await fetch(`${api.client.baseUrl}/admin/calendars`);
    expect(unauthenticated.status).toBe(401);
    await expect(unauthenticated.text()).resolves.not.toContain(name);

    await context.close();
    context = await consoleContext(browser, api.client.baseUrl, { width: 390 });
    page = await context.newPage();
    await page.goto('/admin/calendars');
    await expect(section(name).locator('tr[data-year="2027"] td').first().textContent()).resolves.toBe('40');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const unlabelled = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLInputElement>('input:not([type="hidden"]), textarea')]
        .filter((control) => control.labels?.length === 0)
        .map((control) => control.name),
    );
    expect(unlabelled).toEqual([]);
  });

  it('refuses a forged POST without the CSRF token, and changes nothing', async () => {
    expect((await api.client.put('/calendars/office', { dates: ['2027-12-24'] })).status).toBe(200);
    const before = await storedCalendars();
    const origin = api.client.baseUrl;
    const visit = await fetch(`${origin}/admin/calendars`, { headers: basicAuth() });
    const cookie = visit.headers.get('set-cookie')!.split(';')[0];

    for (const [path, body] of [
      ['/admin/calendars', 'name=forged&dates=2027-01-01'],
      ['/admin/calendars', 'name=office&dates=2027-01-01'],
      ['/admin/calendars/default/office/delete', ''],
    ]) {
      const response = await fetch(`${origin}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { ...basicAuth(), cookie, origin, 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
      expect({ path, body, status: response.status }).toEqual({ path, body, status: 403 });
    }
    expect(await storedCalendars()).toEqual(before);
  });
});
