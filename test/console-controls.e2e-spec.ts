import { Browser, BrowserContext, Page } from 'playwright-core';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { restActions } from './support/console-actions';
import { basicAuth, consoleContext, launchChromium } from './support/console-browser';
import { emptyTables, httpRequestExample, notificationExample } from './support/fixtures';
import { subscribe } from './support/webhooks';

/**
 * An action's page offers only the controls its state allows, each going through the same service
 * as the REST API; the list filters paused actions; the webhooks page redelivers a finished delivery.
 * No worker runs here, so what the console changed stays as it left it.
 */
describe('Operator console controls (in Chromium)', () => {
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
    context = await consoleContext(browser, api.client.baseUrl);
    page = await context.newPage();
  });
  afterEach(() => context.close());

  const create = (body: object) => restActions(api.client).create(body);
  const read = (id: string) => restActions(api.client).read(id);
  const buttons = () => page.locator('.operations button').allTextContents();
  const fact = (term: string) => page.locator(`#live-action dt:text-is("${term}") + dd`).textContent();

  it('offers a COMPLETED action only what can still be done to it', async () => {
    const id = await create(httpRequestExample());
    await api.db.query(`UPDATE actions SET status = 'COMPLETED', finished_at = now() WHERE id = $1`, [id]);

    await page.goto(`/admin/actions/${id}`);
    await expect(buttons()).resolves.toEqual(['Delete']);
    await expect(page.getByLabel('New execution time').count()).resolves.toBe(0);
  });

  it('offers a PENDING repeating action Pause, Cancel and Skip, and shows its new fields', async () => {
    const id = await create(notificationExample(3_600_000, { jitterMs: 30_000, timezone: 'Europe/Berlin' }));
    await page.goto(`/admin/actions/${id}`);
    await expect(buttons()).resolves.toEqual(['Pause', 'Skip', 'Reschedule', 'Cancel', 'Delete']);
    await expect(fact('Paused')).resolves.toBe('no');
    await expect(fact('Jitter')).resolves.toBe('up to 30 s');
    await expect(fact('DST policy')).resolves.toBe('gap: shift, overlap: first');
  });

  it('pauses an action, shows it paused with Resume, and resumes it', async () => {
    const id = await create(notificationExample());
    await page.goto(`/admin/actions/${id}`);
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.waitForURL(`**/admin/actions/${id}?done=paused`);

    await expect(page.getByRole('status').textContent()).resolves.toContain('Paused');
    await expect(fact('Paused')).resolves.toContain('yes');
    await expect(buttons()).resolves.toEqual(expect.arrayContaining(['Resume']));
    await expect(buttons()).resolves.not.toContain('Pause');
    expect((await read(id)).paused).toBe(true);

    await page.getByRole('button', { name: 'Resume' }).click();
    await page.waitForURL(`**/admin/actions/${id}?done=resumed`);
    await expect(fact('Paused')).resolves.toBe('no');
    expect((await read(id)).paused).toBe(false);
  });

  it('skips the next two occurrences of a daily action', async () => {
    const id = await create(notificationExample());
    const before = Date.parse((await read(id)).executionTime);
    await page.goto(`/admin/actions/${id}`);
    await page.getByLabel('Occurrences to skip').fill('2');
    await page.getByRole('button', { name: 'Skip' }).click();
    await page.waitForURL(`**/admin/actions/${id}?done=skipped`);

    expect(Date.parse((await read(id)).executionTime) - before).toBe(2 * 86_400_000);
    const shown = await page.locator('#live-action dt:text-is("Execution time") + dd time').getAttribute('datetime');
    expect(Date.parse(shown!) - before).toBe(2 * 86_400_000);
  });

  it('refuses a skip count outside 1 to 100 and changes nothing', async () => {
    const id = await create(notificationExample());
    const action = await read(id);
    await page.goto(`/admin/actions/${id}`);
    // The field's own bounds stop the browser; the server refuses what gets past them.
    await page.locator('#count').evaluate((input: HTMLInputElement) => input.removeAttribute('max'));
    await page.getByLabel('Occurrences to skip').fill('101');
    const refused = page.waitForResponse((r) => r.url().endsWith('/skip'));
    await page.getByRole('button', { name: 'Skip' }).click();
    expect((await refused).status()).toBe(400);
    await expect(page.getByRole('alert').textContent()).resolves.toContain('count must be a whole number from 1 to 100');
    expect(await read(id)).toEqual(action);
  });

  it('lists only paused actions when asked', async () => {
    await emptyTables(api.db);
    const paused = await create(notificationExample());
    await create(notificationExample());
    expect((await api.client.post(`/actions/${paused}/pause`, {})).status).toBe(200);

    await page.goto('/admin/actions');
    await page.getByLabel('Paused').selectOption('yes');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/paused=yes/);
    const shown = () => page.locator('table.actions tbody a').evaluateAll((links) => links.map((a) => a.getAttribute('title')));
    await expect(shown()).resolves.toEqual([paused]);
    await page.goto('/admin/actions?paused=no');
    await expect(shown()).resolves.not.toContain(paused);
  });

  it('marks the occurrences a pause holds, those whose time has passed too', async () => {
    const id = await create(notificationExample());
    expect((await api.client.post(`/actions/${id}/pause`, {})).status).toBe(200);
    // Paused two days ago: its next occurrences are in the past, and still held.
    await api.db.query(`UPDATE actions SET execution_time = now() - interval '2 days', next_attempt_at = now() - interval '2 days' WHERE id = $1`, [id]);
    await page.goto(`/admin/actions/${id}`);
    const items = page.locator('ol.occurrences li');
    await expect(items.count()).resolves.toBeGreaterThan(1);
    await expect(items.locator('.held').count()).resolves.toBe(await items.count());
    await expect(page.locator('.held-note').textContent()).resolves.toMatch(/do not run until the action is resumed[\s\S]*misfire policy/);
  });

  it('words the retry notice from the state now, and follows the state as the page refreshes', async () => {
    const id = await create(httpRequestExample());
    await api.db.query(`UPDATE actions SET status = 'FAILED', finished_at = now() WHERE id = $1`, [id]);
    await page.goto(`/admin/actions/${id}`);
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.waitForURL(`**/admin/actions/${id}?done=retried`);
    const notice = page.locator('#live-action [role="status"]');
    await expect(notice.textContent()).resolves.toContain('PENDING again');
    // What a worker does next (none runs here).
    await api.db.query(`UPDATE actions SET status = 'COMPLETED', finished_at = now() WHERE id = $1`, [id]);
    await page.waitForFunction(() => document.querySelector('#live-action [role="status"]')?.textContent?.includes('now COMPLETED'), undefined, {
      timeout: 30_000,
    });
    await expect(notice.textContent()).resolves.not.toContain('PENDING again');
    await expect(fact('Status')).resolves.toBe('COMPLETED');
  }, 60_000);

  it('shows an execution time at the epoch as the suspect time it is', async () => {
    const id = await create(httpRequestExample(0, { executionTime: '1970-01-01T00:00:00.000Z' }));
    await page.goto(`/admin/actions/${id}`);
    await expect(page.locator('#live-action dt:text-is("Execution time") + dd .time-suspect').textContent()).resolves.toContain('epoch 0 ms');
  });

  it('fits the actions table in a 1,400 px window, using the width the page has', async () => {
    const id = await create(httpRequestExample());
    const error = `HTTP 503 from https://billing.example.com/${'v1/'.repeat(20)}invoices: ${'upstream unavailable '.repeat(8)}`;
    await api.db.query(`UPDATE actions SET status = 'FAILED', finished_at = now(), retry_count = 3, last_error = $2 WHERE id = $1`, [id, error]);
    await context.close();
    context = await consoleContext(browser, api.client.baseUrl, { width: 1400 });
    page = await context.newPage();
    await page.goto('/admin/actions');
    const fit = await page.evaluate(() => {
      const wrap = document.querySelector('.table-wrap')!;
      return { overflow: wrap.scrollWidth - wrap.clientWidth, width: wrap.getBoundingClientRect().width, page: document.documentElement.scrollWidth };
    });
    expect(fit.overflow).toBeLessThanOrEqual(0);
    expect(fit.page).toBeLessThanOrEqual(1400);
    // The margins beside it are the page's padding, not hundreds of pixels of empty space.
    expect(fit.width).toBeGreaterThan(1300);
  });

  it('lists webhook subscriptions with their deliveries, and redelivers a FAILED one', async () => {
    await emptyTables(api.db);
    const { id } = await subscribe(api.client, 'http://127.0.0.1:9/down', { events: ['action.failed'], actionTypes: ['HTTP_REQUEST'] });
    const { body: delivery } = await api.client.post(`/webhooks/${id}/test`, {});
    // What a worker leaves after the receiver kept failing (none runs here, so it stays put).
    await api.db.query(`UPDATE webhook_deliveries SET status = 'FAILED', attempts = 4, last_status_code = 503, last_error = 'HTTP 503' WHERE id = $1`, [
      delivery.id,
    ]);

    await page.goto('/admin');
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.waitForURL('**/admin/webhooks');
    const section = page.locator(`[data-subscription="${id}"]`);
    await expect(section.locator('h2').textContent()).resolves.toBe('http://127.0.0.1:9/down');
    await expect(section.locator('dl').textContent()).resolves.toMatch(/action\.failed[\s\S]*HTTP_REQUEST/);
    const row = section.locator(`tr[data-delivery="${delivery.id}"]`);
    await expect(row.locator('[data-delivery-status]').textContent()).resolves.toBe('FAILED');
    await expect(row.textContent()).resolves.toContain('HTTP 503');

    await row.getByRole('button', { name: 'Redeliver' }).click();
    await page.waitForURL(`**/admin/webhooks?redelivered=${delivery.id}`);
    await expect(page.getByRole('status').textContent()).resolves.toContain('PENDING again');
    await expect(row.locator('[data-delivery-status]').textContent()).resolves.toBe('PENDING');
    await expect(row.getByRole('button', { name: 'Redeliver' }).count()).resolves.toBe(0);
    const [stored] = await api.db.query(`SELECT status FROM webhook_deliveries WHERE id = $1`, [delivery.id]);
    expect(stored.status).toBe('PENDING');
  });

  it('refuses a forged POST without the CSRF token, and changes nothing', async () => {
    await emptyTables(api.db);
    const id = await create(notificationExample());
    const action = await read(id);
    const origin = api.client.baseUrl;
    const visit = await fetch(`${origin}/admin/actions/${id}`, { headers: basicAuth() });
    const cookie = visit.headers.get('set-cookie')!.split(';')[0];
    const subscription = await subscribe(api.client, 'http://127.0.0.1:9/down');
    const { body: delivery } = await api.client.post(`/webhooks/${subscription.id}/test`, {});
    await api.db.query(`UPDATE webhook_deliveries SET status = 'FAILED' WHERE id = $1`, [delivery.id]);

    for (const path of [
      `/admin/actions/${id}/pause`,
      `/admin/actions/${id}/skip`,
      `/admin/actions/${id}/cancel`,
      `/admin/webhooks/${subscription.id}/deliveries/${delivery.id}/redeliver`,
    ]) {
      const response = await fetch(`${origin}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { ...basicAuth(), cookie, origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'count=2',
      });
      expect({ path, status: response.status }).toEqual({ path, status: 403 });
    }
    expect(await read(id)).toEqual(action);
    const [stored] = await api.db.query(`SELECT status FROM webhook_deliveries WHERE id = $1`, [delivery.id]);
    expect(stored.status).toBe('FAILED');
  });
});
