import { INestApplicationContext } from '@nestjs/common';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { waitUntil } from '@app/testing';
import { WorkerPresence } from '@app/server';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { restActions } from './support/console-actions';
import { consoleContext, launchChromium } from './support/console-browser';
import { TYPES_WITH_ECHO } from './support/echo-action-type';
import { notificationExample } from './support/fixtures';
import { startWorker } from './support/worker-test-app';

const FAST = { PROMOTE_INTERVAL_MS: '200' };

/**
 * What the console tells of the workers (in Chromium): the API knows TEST_ECHO, the one live worker
 * knows only the built-in types and serves only HTTP_REQUEST.
 */
describe('The console on workers and the actions waiting for one', () => {
  let api: ApiTestApp;
  let worker: INestApplicationContext;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    [api, browser] = await Promise.all([startCleanApiApp(TYPES_WITH_ECHO, FAST), launchChromium()]);
    worker = await startWorker({ env: { ...FAST, WORKER_ACTIONS: 'HTTP_REQUEST' } });
  });
  afterAll(async () => {
    await browser?.close();
    await worker?.close();
    await api?.close();
  });
  beforeEach(async () => {
    context = await consoleContext(browser, api.client.baseUrl);
    page = await context.newPage();
  });
  afterEach(() => context.close());

  const create = (body: object) => restActions(api.client).create(body);
  const statusOf = async (id: string): Promise<string> => (await restActions(api.client).read(id)).status;
  const echo = (inMs: number) => create({ action: 'TEST_ECHO', executionTime: Date.now() + inMs, data: { message: 'hello' } });

  it('lists each live worker with the types it knows and serves, linked from the navigation', async () => {
    await page.goto('/admin');
    await page.getByRole('link', { name: 'Workers' }).click();
    await page.waitForURL('**/admin/workers');
    const row = page.locator(`tr[data-worker="${worker.get(WorkerPresence).id}"]`);
    const cells = await row.locator('td').allTextContents();
    expect(cells[0]).toContain('SEND_NOTIFICATION');
    expect(cells[0]).not.toContain('TEST_ECHO');
    expect(cells[1].trim()).toBe('HTTP_REQUEST');
    expect(cells[2].trim()).toBe('10');
    expect(cells[3].trim()).toBe('0');
  });

  it('says a due action waits for a worker when live workers know its type but none serves it, and when none knows it', async () => {
    const unserved = await create(notificationExample(0));
    await page.goto(`/admin/actions/${unserved}`);
    await expect(page.getByRole('note').textContent()).resolves.toMatch(/Waiting for a worker:\s+live workers know SEND_NOTIFICATION but none serves it/);

    const unknown = await echo(0);
    await page.goto(`/admin/actions/${unknown}`);
    await expect(page.getByRole('note').textContent()).resolves.toMatch(/No live worker knows TEST_ECHO\./);

    const later = await echo(3_600_000);
    await page.goto(`/admin/actions/${later}`);
    expect(await page.getByRole('note').count()).toBe(0);
  });

  it('lists NO_ACTION actions in the dead letters beside FAILED, and retries them all through the manual retry', async () => {
    const id = await echo(3_600_000);
    // Due for longer than UNKNOWN_TYPE_GRACE_MS (10 minutes), and no live worker knows TEST_ECHO: the promoter ends it.
    await api.db.query(`UPDATE actions SET next_attempt_at = now() - interval '1 hour' WHERE id = $1`, [id]);
    await waitUntil('NO_ACTION', async () => (await statusOf(id)) === 'NO_ACTION', 10_000);

    await page.goto('/admin/dead-letters');
    await page
      .getByRole('row', { name: /TEST_ECHO/ })
      .getByRole('link', { name: 'NO_ACTION' })
      .click();
    await page.waitForURL('**/admin/dead-letters/TEST_ECHO?status=NO_ACTION');
    await expect(page.locator('table.actions tbody tr').count()).resolves.toBe(1);
    await page.getByRole('link', { name: 'Retry all 1…' }).click();
    await expect(page.locator('form.confirm').textContent()).resolves.toMatch(/puts\s+1\s+NO_ACTION TEST_ECHO action of every tenant back to PENDING/);
    await page.getByRole('button', { name: 'Retry all 1' }).click();
    await page.waitForURL('**/admin/dead-letters/TEST_ECHO?status=NO_ACTION&retried=1&skipped=0');
    await expect(page.getByRole('status').textContent()).resolves.toContain('Retried 1 action');
    // Due now again, it waits within the grace for a worker that knows its type.
    expect(await statusOf(id)).toBe('PENDING');
  });
});
