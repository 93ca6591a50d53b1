import { INestApplicationContext } from '@nestjs/common';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { ActionQueues } from '@app/scheduling';
import { HttpReceiver, waitUntil } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { restActions } from './support/console-actions';
import { basicAuth, consoleContext, launchChromium } from './support/console-browser';
import { emptyTables, httpRequestExample, notificationExample } from './support/fixtures';
import { startWorker } from './support/worker-test-app';

/**
 * The operator console in a real browser (Debian's Chromium, driven by playwright-core), on the
 * real API and a real worker: every change an operator makes goes through the same service as
 * the REST API, and the worker runs what the console retried.
 */
describe('Operator console (in Chromium)', () => {
  let api: ApiTestApp;
  let worker: INestApplicationContext;
  let receiver: HttpReceiver;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    [api, receiver, browser] = await Promise.all([startCleanApiApp(), new HttpReceiver().start(), launchChromium()]);
    worker = await startWorker();
  });
  afterAll(async () => {
    await browser?.close();
    await worker?.close();
    await api?.close();
    await receiver?.stop();
  });

  beforeEach(async () => {
    receiver.failNext(0);
    context = await consoleContext(browser, api.client.baseUrl);
    page = await context.newPage();
  });
  afterEach(() => context.close());

  const create = (body: object) => restActions(api.client).create(body);
  const read = (id: string) => restActions(api.client).read(id);
  const statusOf = async (id: string): Promise<string> => (await read(id)).status;

  /** HTTP_REQUEST actions whose every attempt fails, waited for until FAILED. */
  const failedActions = async (count: number): Promise<string[]> => {
    receiver.failNext(1000, 503, 'upstream is down');
    const ids = await Promise.all(Array.from({ length: count }, () => create(httpRequestExample(0, { data: { url: receiver.url('/orders') } }))));
    for (const id of ids) await waitUntil(`action ${id} to be FAILED`, async () => (await statusOf(id)) === 'FAILED');
    receiver.failNext(0);
    return ids;
  };

  const statusOnPage = () => page.locator('#live-action [data-status]').getAttribute('data-status');

  it('logs in with the admin credentials and shows counts by status and by type', async () => {
    expect((await fetch(`${api.client.baseUrl}/admin`)).status).toBe(401);
    expect((await fetch(`${api.client.baseUrl}/admin`, { headers: basicAuth('admin', 'wrong-password') })).status).toBe(401);
    await create(notificationExample());
    await create(httpRequestExample());

    const response = await page.goto('/admin');
    expect(response?.status()).toBe(200);
    await expect(page.locator('h1').textContent()).resolves.toBe('Overview');
    const pending = page.locator('.tiles li', { has: page.locator('[data-status="PENDING"]') });
    await expect(pending.locator('.tile-count').textContent()).resolves.toBe('2');
    await expect(page.locator('table th[scope="row"]').allTextContents()).resolves.toEqual(['HTTP_REQUEST', 'SEND_NOTIFICATION']);
    // The last hour is drawn from stored data, with a figure per minute.
    await expect(page.locator('.chart svg').count()).resolves.toBe(2);
  });

  it('finds an action by its pasted id and shows its data, schedule and history', async () => {
    const id = await create(notificationExample(3_600_000, { metadata: { customer: 'c-42' } }));

    await page.goto('/admin/actions');
    await page.getByLabel('Find by id').fill(id);
    await page.getByLabel('Find by id').press('Enter');
    await page.waitForURL(`**/admin/actions/${id}`);

    await expect(page.locator('h1').textContent()).resolves.toContain(id);
    expect(await statusOnPage()).toBe('PENDING');
    await expect(page.locator('pre.json').first().textContent()).resolves.toContain('"templateType": "USER_LATE_PAYMENT_NOTIFICATION"');
    await expect(page.locator('pre.json').nth(1).textContent()).resolves.toContain('"customer": "c-42"');
    // DAILY, 5 executions left: the current occurrence and the next four, a day apart.
    const times = await page.locator('.occurrences time').evaluateAll((elements) => elements.map((e) => e.getAttribute('datetime')!));
    expect(times).toHaveLength(5);
    expect(new Date(times[4]).getTime() - new Date(times[0]).getTime()).toBe(4 * 86_400_000);
    await expect(page.locator('.timeline li').allTextContents()).resolves.toEqual([expect.stringContaining('created')]);
  });

  it('lists actions filtered by status and type, newest first, one page at a time', async () => {
    await emptyTables(api.db);
    const ids: string[] = [];
    for (let i = 1; i <= 3; i += 1) ids.push(await create(httpRequestExample(i * 3_600_000)));
    await create(notificationExample());

    await page.goto('/admin/actions');
    await page.getByLabel('Status').selectOption('PENDING');
    await page.getByLabel('Type').selectOption('HTTP_REQUEST');
    await page.getByLabel('Order').selectOption('newest');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/order=newest/);
    const shown = () => page.locator('table.actions tbody a').evaluateAll((links) => links.map((a) => a.getAttribute('title')));
    await expect(shown()).resolves.toEqual([ids[2], ids[1], ids[0]]);

    // Keyset pages keep the filters and continue where the last page ended.
    await page.goto('/admin/actions?status=PENDING&action=HTTP_REQUEST&order=newest&limit=2');
    await expect(shown()).resolves.toEqual([ids[2], ids[1]]);
    await page.getByRole('link', { name: 'Next page' }).click();
    await expect(shown()).resolves.toEqual([ids[0]]);
    await expect(page.getByRole('link', { name: 'Next page' }).count()).resolves.toBe(0);
  });

  it('reschedules an action at a time typed in the browser’s zone', async () => {
    await context.close();
    context = await consoleContext(browser, api.client.baseUrl, { timezoneId: 'America/New_York' });
    page = await context.newPage();
    const id = await create(httpRequestExample(24 * 3_600_000));

    await page.goto(`/admin/actions/${id}`);
    await expect(page.locator('label[for="executionTime"]').textContent()).resolves.toContain('America/New_York');
    await page.getByLabel('New execution time').fill('2031-01-15T09:30');
    await page.getByRole('button', { name: 'Reschedule' }).click();
    await page.waitForURL(`**/admin/actions/${id}?done=rescheduled`);

    await expect(page.getByRole('status').textContent()).resolves.toContain('Rescheduled');
    // 09:30 in New York in January is 14:30 UTC, and the page shows UTC on hover.
    expect((await read(id)).executionTime).toBe('2031-01-15T14:30:00.000Z');
    const shown = page.locator('#live-action dt:text("Execution time") + dd time');
    await expect(shown.getAttribute('title')).resolves.toContain('2031-01-15 14:30:00 UTC');
    await expect(shown.textContent()).resolves.toMatch(/9:30:00/);
  });

  it('offers no reschedule or delete inside the lock window, and refuses one sent from an older page, saying why', async () => {
    const id = await create(httpRequestExample());
    // Two pages loaded while the action was still due later; then it is moved into the lock window.
    await page.goto(`/admin/actions/${id}`);
    const older = await context.newPage();
    await older.goto(`/admin/actions/${id}`);
    expect((await api.client.patch(`/actions/${id}`, { executionTime: new Date(Date.now() + 60_000).toISOString() })).status).toBe(200);
    const before = await read(id);

    await page.getByLabel('New execution time').fill('2031-01-15T09:30');
    const refused = page.waitForResponse((r) => r.url().endsWith('/reschedule'));
    await page.getByRole('button', { name: 'Reschedule' }).click();
    expect((await refused).status()).toBe(409);
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/inside the lock window of 120000 ms/);
    // The page it answers with shows the action as it is now: nothing left to reschedule or delete.
    await expect(page.getByRole('button', { name: 'Reschedule' }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Delete' }).count()).resolves.toBe(0);

    older.once('dialog', (dialog) => void dialog.accept());
    const refusedDelete = older.waitForResponse((r) => r.url().endsWith('/delete'));
    await older.getByRole('button', { name: 'Delete' }).click();
    expect((await refusedDelete).status()).toBe(409);
    await expect(older.getByRole('alert').textContent()).resolves.toMatch(/inside the lock window/);

    expect(await read(id)).toEqual(before);
  });

  it('retries a FAILED action and watches it complete on the live page', async () => {
    const [id] = await failedActions(1);
    await page.clock.install();
    await page.goto(`/admin/actions/${id}`);
    expect(await statusOnPage()).toBe('FAILED');
    await expect(page.locator('#live-action pre.error-text').textContent()).resolves.toContain('HTTP 503: upstream is down');

    await page.getByRole('button', { name: 'Retry' }).click();
    await page.waitForURL(`**/admin/actions/${id}?done=retried`);
    await expect(page.getByRole('status').textContent()).resolves.toContain('Retried');

    // The page refreshes its live regions by itself (every 10 s; the test moves the browser's clock on).
    await waitUntil('the page to show the action COMPLETED', async () => {
      await page.clock.fastForward(10_000);
      return (await statusOnPage()) === 'COMPLETED';
    });
    await expect(page.locator('.timeline li').first().textContent()).resolves.toContain('HTTP 200');
    expect((await read(id)).status).toBe('COMPLETED');
  });

  it('deletes an action after the browser asks to confirm', async () => {
    const id = await create(httpRequestExample());
    await page.goto(`/admin/actions/${id}`);

    let asked = '';
    page.once('dialog', (dialog) => {
      asked = dialog.message();
      void dialog.accept();
    });
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(`**/admin/actions?deleted=${id}`);

    expect(asked).toContain(`Delete action ${id}?`);
    await expect(page.getByRole('status').textContent()).resolves.toContain(`Deleted action ${id}`);
    expect((await api.client.get(`/actions/${id}`)).status).toBe(404);
  });

  it('cancels an action after a confirmation, at once outside the lock window and after its occurrence inside it', async () => {
    const later = await create(httpRequestExample());
    await page.goto(`/admin/actions/${later}`);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL(`**/admin/actions/${later}?done=canceled`);
    await expect(page.getByRole('status').textContent()).resolves.toContain('Canceled');
    expect(await statusOnPage()).toBe('CANCELED');
    await expect(page.getByRole('button', { name: 'Cancel' }).count()).resolves.toBe(0);
    expect((await api.client.get(`/actions/${later}/history`)).body.at(-1)).toMatchObject({ to: 'CANCELED', note: 'canceled: canceled in the console' });

    const locked = await create(httpRequestExample(60_000));
    await page.goto(`/admin/actions/${locked}`);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL(`**/admin/actions/${locked}?done=canceled`);
    await expect(page.locator('.cancel-pending').textContent()).resolves.toContain('occurrence 1 finishes first');
    expect(await read(locked)).toMatchObject({ status: 'PENDING', cancelRequestedAt: expect.any(String) });
  });

  it('retries all FAILED actions of a type after a confirmation that says how many', async () => {
    await emptyTables(api.db);
    const ids = await failedActions(3);

    await page.goto('/admin/dead-letters');
    await page.getByRole('link', { name: 'HTTP_REQUEST' }).click();
    await expect(page.locator('table.actions tbody tr').count()).resolves.toBe(3);
    await page.getByRole('link', { name: 'Retry all 3…' }).click();
    await expect(page.locator('form.confirm').textContent()).resolves.toMatch(/puts\s+3\s+FAILED HTTP_REQUEST actions of every tenant back to PENDING/);
    await page.getByRole('button', { name: 'Retry all 3' }).click();
    await page.waitForURL(/\/admin\/dead-letters\/HTTP_REQUEST\?retried=3/);

    await expect(page.getByRole('status').textContent()).resolves.toContain('Retried 3 actions');
    for (const id of ids) await waitUntil(`action ${id} to complete`, async () => (await statusOf(id)) === 'COMPLETED');
  });

  it('links to Bull Board, and Bull Board links back', async () => {
    const id = await create(httpRequestExample(60_000));
    await page.goto(`/admin/actions/${id}`);
    const job = await page.getByRole('link', { name: 'its job in the queue admin' }).getAttribute('href');
    expect(job).toMatch(new RegExp(`^/admin/queues/queue/HTTP_REQUEST/${id}_o1_a1_r\\d+$`));

    await page.getByRole('link', { name: /Queues/ }).click();
    await page.waitForURL('**/admin/queues');
    await expect(page.title()).resolves.toBe('Punctual');
    const board = await fetch(`${api.client.baseUrl}/admin/queues`, { headers: basicAuth() });
    expect(await board.text()).toContain('"miscLinks":[{"text":"Punctual console","url":"/admin"}]');
  });

  it("lists a failed attempt's job as failed in Bull Board, which loads nothing from the internet", async () => {
    const [id] = await failedActions(1);
    const queue = api.app.get(ActionQueues).queueFor('HTTP_REQUEST');
    // The row is FAILED a moment before BullMQ moves the job that recorded it.
    const failed = await waitUntil("the last attempt's job to fail", async () => {
      const jobs = (await queue.getFailed()).filter((job) => job.data.actionId === id);
      return jobs.some((job) => job.failedReason.includes('no retry is left')) ? jobs : null;
    });
    expect(failed.map((job) => job.failedReason).sort()).toEqual([
      expect.stringMatching(/^Attempt failed and no retry is left: the action is FAILED/),
      ...Array(failed.length - 1).fill(expect.stringMatching(/^Attempt failed: the action runs it again later/)),
    ]);
    expect(failed.every((job) => job.attemptsMade === 1)).toBe(true);

    const elsewhere: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).origin !== api.client.baseUrl) elsewhere.push(request.url());
    });
    await page.goto('/admin/queues/queue/HTTP_REQUEST?status=failed');
    await page.getByText(failed[0].id!).first().waitFor();
    expect(elsewhere).toEqual([]);
  });

  it('reaches every operation with the keyboard alone', async () => {
    const id = await create(httpRequestExample());
    await page.goto(`/admin/actions/${id}`);
    const reached: string[] = [];
    for (let i = 0; i < 40 && !reached.includes('button:Delete'); i += 1) {
      await page.keyboard.press('Tab');
      reached.push(
        await page.evaluate(
          () => `${document.activeElement!.tagName.toLowerCase()}:${(document.activeElement as HTMLElement).innerText || document.activeElement!.id}`,
        ),
      );
    }
    expect(reached[0]).toBe('a:Skip to content');
    expect(reached).toEqual(expect.arrayContaining(['button:Pause', 'input:executionTime', 'button:Reschedule', 'button:Delete']));
  });

  it('is readable on a 390 px wide screen, and every control has a label', async () => {
    const id = await create(notificationExample());
    await context.close();
    context = await consoleContext(browser, api.client.baseUrl, { width: 390 });
    page = await context.newPage();
    for (const path of ['/admin', '/admin/actions', `/admin/actions/${id}`, '/admin/dead-letters', '/admin/webhooks']) {
      await page.goto(path);
      // Nothing wider than the screen: no sideways scrolling of the page (wide tables scroll inside their own box).
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      const unlabelled = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLInputElement>('input:not([type="hidden"]), select, textarea')]
          .filter((control) => control.labels?.length === 0 && !control.getAttribute('aria-label'))
          .map((control) => control.name),
      );
      expect(unlabelled).toEqual([]);
    }
  });
});
