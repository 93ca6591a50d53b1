import { Server, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { Browser, Page } from 'playwright-core';
import { TEST_KEY } from '@app/testing';
import { ApiTestApp, startApiApp } from './support/api-test-app';
import { launchChromium } from './support/console-browser';

describe('The OpenAPI UI at /docs signs "Try it out" in the browser', () => {
  let api: ApiTestApp;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [api, browser] = await Promise.all([startApiApp(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });
  beforeEach(async () => {
    page = await browser.newPage({ baseURL: api.client.baseUrl });
    await page.goto('/docs');
  });
  afterEach(() => page.close());

  /** Fills Authorize's X-Punctual-Key field as a person would, and closes the dialog. */
  async function authorize(value: string): Promise<void> {
    await page.locator('.btn.authorize').first().click();
    const scheme = page.locator('.modal-ux .auth-container').filter({ hasText: 'X-Punctual-Key' }).first();
    await scheme.locator('input').fill(value);
    await scheme.locator('button.authorize').click();
    await scheme.locator('.btn-done').click();
  }

  /** Runs GET /actions/stats through "Try it out" and answers the request the page sent and the status it shows. */
  async function tryStats(): Promise<{ headers: Record<string, string>; status: number }> {
    const operation = page.locator('#operations-actions-getActionStats');
    await operation.locator('.opblock-summary').click();
    await operation.locator('.try-out__btn').click();
    const [request] = await Promise.all([page.waitForRequest((r) => r.url().endsWith('/actions/stats')), operation.locator('.execute').click()]);
    const response = await request.response();
    return { headers: await request.allHeaders(), status: response!.status() };
  }

  it('with keyId:secret in X-Punctual-Key: the call is signed, answers 200, and carries the key id alone', async () => {
    await authorize(`${TEST_KEY.keyId}:${TEST_KEY.secret}`);
    const { headers, status } = await tryStats();
    expect(status).toBe(200);
    expect(headers['x-punctual-key']).toBe(TEST_KEY.keyId);
    expect(headers['x-punctual-signature']).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(JSON.stringify(headers)).not.toContain(TEST_KEY.secret);
  });

  it('with a wrong secret: the server refuses the signature (401), and the secret is not sent', async () => {
    await authorize(`${TEST_KEY.keyId}:wrong-secret-0123456789`);
    const { headers, status } = await tryStats();
    expect(status).toBe(401);
    expect(JSON.stringify(headers)).not.toContain('wrong-secret-0123456789');
  });

  // Nest's page reads `url=` from its query string, and Swagger UI can take a `configUrl`: were either
  // honoured, a link to /docs?url=… could load a document whose servers are another site's, and
  // "Try it out" would sign calls (a signature valid on this API for 300 s) and send them there.
  it("loads no document or configuration named in its query: the page shows Punctual's own, and the other site gets no request", async () => {
    const requests: string[] = [];
    const other: Server = createServer((request, response) => {
      requests.push(`${request.method} ${request.url}`);
      response.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*', 'access-control-allow-headers': '*' });
      const origin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
      response.end(
        JSON.stringify(
          request.url === '/config'
            ? { url: `${origin}/openapi.json` }
            : { openapi: '3.0.0', info: { title: 'Elsewhere', version: '1' }, servers: [{ url: origin }], paths: {} },
        ),
      );
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const origin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
      for (const query of [`?url=${origin}/openapi.json`, `?configUrl=${origin}/config`, `?config=${origin}/config`]) {
        await page.goto(`/docs${query}`);
        await page.locator('#operations-actions-getActionStats').waitFor({ timeout: 10_000 });
        await expect(page.locator('.info .title').first().textContent()).resolves.toContain('Punctual');
      }
      expect(requests).toEqual([]);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });
});
