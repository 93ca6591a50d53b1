import { Server, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { Browser } from 'playwright-core';
import { HttpReceiver, waitUntil } from '@app/testing';
import { ApiTestApp, startApiApp, startCleanApiApp } from './support/api-test-app';
import { ADMIN_CREDENTIALS, basicAuth, consoleContext, launchChromium } from './support/console-browser';
import { ConsoleSession, openConsoleSession, postConsoleForm } from './support/console-form';
import { httpRequestExample, storedCounts } from './support/fixtures';
import { startWorker } from './support/worker-test-app';

/**
 * The console's defences: basic auth on every route, CSRF checks on every change, client data
 * shown only as text, credentials never echoed, and bad input refused with the field named.
 */
describe('Operator console security', () => {
  let api: ApiTestApp;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    [api, browser] = await Promise.all([startCleanApiApp(), launchChromium()]);
    origin = api.client.baseUrl;
  });
  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  const create = async (body: object = httpRequestExample()): Promise<string> => (await api.client.post('/actions', body)).body.id;

  /** Opens an action's page as a browser would, and keeps the session it was given. */
  const openSession = async (): Promise<ConsoleSession> => openConsoleSession(origin, `/admin/actions/${await create()}`);

  const postForm = (path: string, fields: Record<string, string>, headers: Record<string, string>) => postConsoleForm(origin, path, fields, headers);

  it('asks for the admin credentials on every console route, and a POST without them changes nothing', async () => {
    const id = await create();
    for (const path of [
      '/admin',
      '/admin/actions',
      `/admin/actions/${id}`,
      '/admin/dead-letters',
      '/admin/dead-letters/HTTP_REQUEST',
      '/admin/webhooks',
      '/admin/calendars',
      '/admin/tenants',
      '/admin/assets/console.js',
    ]) {
      const response = await fetch(`${origin}${path}`);
      expect({ path, status: response.status }).toEqual({ path, status: 401 });
      expect(response.headers.get('www-authenticate')).toMatch(/^Basic realm="Punctual admin"/);
    }
    const before = await storedCounts(api.db);
    const response = await fetch(`${origin}/admin/actions/${id}/delete`, { method: 'POST', headers: { origin } });
    expect(response.status).toBe(401);
    expect(await storedCounts(api.db)).toEqual(before);
  });

  it('refuses a change without a same-origin Origin or Referer, or without the session’s token, and changes nothing', async () => {
    const id = await create();
    const session = await openSession();
    const other = await openSession();
    const before = await storedCounts(api.db);
    const attempts: [string, Record<string, string>, Record<string, string>][] = [
      ['no Origin or Referer', { _csrf: session.token }, { cookie: session.cookie }],
      ['another origin', { _csrf: session.token }, { cookie: session.cookie, origin: 'http://evil.example' }],
      ['another origin in Referer', { _csrf: session.token }, { cookie: session.cookie, referer: 'http://evil.example/page' }],
      ['no token', {}, { cookie: session.cookie, origin }],
      ['a token of another session', { _csrf: other.token }, { cookie: session.cookie, origin }],
      ['no session cookie', { _csrf: session.token }, { origin }],
      // What the browser says wins over headers that look right (the admin API's rule too).
      ['Sec-Fetch-Site: cross-site', { _csrf: session.token }, { cookie: session.cookie, origin, 'sec-fetch-site': 'cross-site' }],
      ['Sec-Fetch-Site: same-site', { _csrf: session.token }, { cookie: session.cookie, origin, 'sec-fetch-site': 'same-site' }],
      ['an opaque origin', { _csrf: session.token }, { cookie: session.cookie, origin: 'null' }],
    ];
    for (const [what, fields, headers] of attempts) {
      const response = await postForm(`/admin/actions/${id}/delete`, fields, headers);
      expect({ what, status: response.status }).toEqual({ what, status: 403 });
      expect(await response.text()).toContain('This request was refused because');
    }
    expect(await storedCounts(api.db)).toEqual(before);
    expect((await api.client.get(`/actions/${id}`)).status).toBe(200);

    // The same request from a console page (a same-origin Referer, or the token in a header) goes through.
    const viaReferer = await postForm(
      `/admin/actions/${id}/delete`,
      { _csrf: session.token },
      { cookie: session.cookie, referer: `${origin}/admin/actions/${id}` },
    );
    expect(viaReferer.status).toBe(303);
    expect((await api.client.get(`/actions/${id}`)).status).toBe(404);
    const second = await create();
    const viaHeader = await postForm(
      `/admin/actions/${second}/delete`,
      {},
      { cookie: session.cookie, origin, 'x-csrf-token': session.token, 'sec-fetch-site': 'same-origin' },
    );
    expect(viaHeader.status).toBe(303);
  });

  it('refuses a form that another site makes the logged-in browser send', async () => {
    const id = await create();
    // The other site guesses everything but the token, and the browser adds the cookie and credentials itself.
    const attacker: Server = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(`<form method="post" action="${origin}/admin/actions/${id}/delete"><input name="_csrf" value="guessed"></form>
        <script>document.forms[0].submit()</script>`);
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    const context = await consoleContext(browser, origin);
    try {
      const page = await context.newPage();
      await page.goto('/admin');
      // The browser may first be challenged for credentials; the answer that counts is the one after.
      const refused = page.waitForResponse((r) => r.url().endsWith(`/admin/actions/${id}/delete`) && r.status() !== 401);
      await page.goto(`http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`);
      expect((await refused).status()).toBe(403);
      expect((await api.client.get(`/actions/${id}`)).status).toBe(200);
    } finally {
      await context.close();
      await new Promise((resolve) => attacker.close(resolve));
    }
  });

  it('shows a <script> in data, metadata and lastError as text, and never runs it', async () => {
    const receiver = await new HttpReceiver().start();
    const worker = await startWorker();
    const context = await consoleContext(browser, origin);
    try {
      const script = (n: number) => `<script>window.__injected = ${n}</script><img src=x onerror="window.__injected = ${n}">`;
      receiver.failNext(1000, 500, script(3));
      const id = await create(httpRequestExample(0, { data: { url: receiver.url(), body: { note: script(1) } }, metadata: { label: script(2) } }));
      await waitUntil('the action to be FAILED', async () => (await api.client.get(`/actions/${id}`)).body.status === 'FAILED');

      const page = await context.newPage();
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      const response = await page.goto(`/admin/actions/${id}`);
      expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
      const [data, metadata] = await page.locator('pre.json').allTextContents();
      expect(data).toContain(JSON.stringify(script(1)).slice(1, -1));
      expect(metadata).toContain(JSON.stringify(script(2)).slice(1, -1));
      await expect(page.locator('pre.error-text').first().textContent()).resolves.toContain(script(3));
      await page.goto('/admin/dead-letters/HTTP_REQUEST');
      await expect(page.locator('.error-summary').first().textContent()).resolves.toContain('<script>window.__injected = 3</script>');
      expect(await page.evaluate(() => (window as unknown as { __injected?: number }).__injected)).toBeUndefined();
      expect(dialogs).toEqual([]);
    } finally {
      await context.close();
      await worker.close();
      await receiver.stop();
    }
  });

  it('never puts the admin credentials in a page', async () => {
    const id = await create();
    const authorization = basicAuth().authorization.slice('Basic '.length);
    for (const path of [
      '/admin',
      '/admin/actions',
      `/admin/actions/${id}`,
      '/admin/dead-letters',
      `/admin/dead-letters/HTTP_REQUEST/retry-all`,
      '/admin/webhooks',
      '/admin/calendars',
      '/admin/tenants',
    ]) {
      const page = await (await fetch(`${origin}${path}`, { headers: basicAuth() })).text();
      expect(page).not.toContain(ADMIN_CREDENTIALS.password);
      expect(page).not.toContain(authorization);
    }
  });

  it('answers bad input with a 400 page naming the field, and changes nothing', async () => {
    const id = await create();
    const session = await openSession();
    const before = await storedCounts(api.db);
    const action = (await api.client.get(`/actions/${id}`)).body;
    const pages: [string, RegExp][] = [
      ['/admin/actions?status=LOST', /status must be one of PENDING, IN_PROGRESS, COMPLETED, FAILED, NO_ACTION/],
      ['/admin/actions?from=yesterday', /from must be a date and time/],
      ['/admin/actions?limit=501', /limit must be a whole number from 1 to 500/],
      ['/admin/actions?paused=maybe', /paused must be yes or no/],
      ['/admin/actions?cursor=forged', /cursor is not valid/],
      ['/admin/actions?id=12345', /id must be an action id \(a UUID\)/],
      ['/admin/actions/12345', /id must be an action id \(a UUID\)/],
      ['/admin/dead-letters/%3Cb%3E', /type must be an action type name/],
    ];
    for (const [path, message] of pages) {
      const response = await fetch(`${origin}${path}`, { headers: basicAuth() });
      expect({ path, status: response.status }).toEqual({ path, status: 400 });
      expect(await response.text()).toMatch(message);
    }
    const notFound = await fetch(`${origin}/admin/actions/00000000-0000-4000-8000-000000000000`, { headers: basicAuth() });
    expect(notFound.status).toBe(404);
    expect(await notFound.text()).toContain('Action 00000000-0000-4000-8000-000000000000 not found');

    for (const [value, message] of [
      ['', /executionTime is required/],
      ['next tuesday', /executionTime must be a date and time/],
      ['10000-01-01T00:00', /executionTime must be a date and time/],
      ['1969-12-31T23:59', /executionTime must be between the years 1970 and 9999/],
    ] as const) {
      const response = await postForm(
        `/admin/actions/${id}/reschedule`,
        { _csrf: session.token, executionTime: value },
        { cookie: session.cookie, origin },
      );
      expect({ value, status: response.status }).toEqual({ value, status: 400 });
      expect(await response.text()).toMatch(message);
    }
    expect(await storedCounts(api.db)).toEqual(before);
    expect((await api.client.get(`/actions/${id}`)).body).toEqual(action);
  });

  describe('behind a TLS proxy', () => {
    let behindProxy: ApiTestApp;

    beforeAll(async () => {
      behindProxy = await startApiApp(undefined, { TRUST_PROXY: 'loopback' });
    });
    afterAll(() => behindProxy?.close());

    /** The session cookie a first visit to the console is given. */
    const sessionCookie = async (baseUrl: string, headers: Record<string, string> = {}) =>
      (await fetch(`${baseUrl}/admin`, { headers: { ...basicAuth(), ...headers } })).headers.get('set-cookie');

    it('marks the session cookie Secure when a proxy TRUST_PROXY names says the visit came over HTTPS, and only then', async () => {
      expect(await sessionCookie(behindProxy.client.baseUrl, { 'x-forwarded-proto': 'https' })).toMatch(/; Secure(;|$)/);
      expect(await sessionCookie(behindProxy.client.baseUrl)).not.toMatch(/Secure/);
      // Without TRUST_PROXY, any client could claim HTTPS.
      expect(await sessionCookie(origin, { 'x-forwarded-proto': 'https' })).not.toMatch(/Secure/);
    });
  });
});
