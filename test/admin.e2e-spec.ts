import { ApiTestApp, startApiApp } from './support/api-test-app';

describe('Admin UI (Bull Board) and public endpoints', () => {
  let api: ApiTestApp;
  const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });

  beforeAll(async () => {
    api = await startApiApp();
  });
  afterAll(() => api.close());

  it('asks for credentials without them or with wrong ones', async () => {
    const none = await fetch(`${api.client.baseUrl}/admin/queues`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Basic realm="Punctual admin"/);
    expect((await fetch(`${api.client.baseUrl}/admin/queues`, { headers: basic('admin', 'wrong') })).status).toBe(401);
  });

  it('serves the board and lists one queue per action type, and the webhook queue, with credentials', async () => {
    const page = await fetch(`${api.client.baseUrl}/admin/queues`, { headers: basic('admin', 'admin-password') });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<title>Punctual<\/title>|Punctual/);
    const queues = await fetch(`${api.client.baseUrl}/admin/queues/api/queues`, { headers: basic('admin', 'admin-password') });
    expect(queues.status).toBe(200);
    const names = ((await queues.json()) as { queues: { name: string }[] }).queues.map((q) => q.name).sort();
    expect(names).toEqual(['GRPC', 'HTTP_REQUEST', 'MESSAGE', 'SEND_NOTIFICATION', 'webhooks']);
  });

  it('serves the board with the console’s frame and content-type headers', async () => {
    const headersOf = async (path: string) => {
      const response = await fetch(`${api.client.baseUrl}${path}`, { headers: basic('admin', 'admin-password') });
      return { status: response.status, frame: response.headers.get('x-frame-options'), sniff: response.headers.get('x-content-type-options') };
    };
    const consolePage = await headersOf('/admin');
    expect(consolePage).toEqual({ status: 200, frame: 'DENY', sniff: 'nosniff' });
    expect(await headersOf('/admin/queues')).toEqual(consolePage);
    expect(await headersOf('/admin/queues/api/queues')).toEqual(consolePage);
  });

  it('names no framework in its answers (no X-Powered-By)', async () => {
    for (const response of [
      await fetch(`${api.client.baseUrl}/health/live`),
      await fetch(`${api.client.baseUrl}/actions`),
      await fetch(`${api.client.baseUrl}/admin/queues`, { headers: basic('admin', 'admin-password') }),
    ]) {
      expect({ url: response.url, poweredBy: response.headers.get('x-powered-by') }).toEqual({ url: response.url, poweredBy: null });
    }
  });

  it('/health reports Postgres and Redis without a signature', async () => {
    const response = await fetch(`${api.client.baseUrl}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ok', info: { postgres: { status: 'up' }, redis: { status: 'up' } } });
  });

  it('/docs serves the OpenAPI UI and the document lists every route with the signature headers, and the admin API with its login', async () => {
    expect((await fetch(`${api.client.baseUrl}/docs`)).status).toBe(200);
    const document = await (await fetch(`${api.client.baseUrl}/docs-json`)).json();
    expect(Object.keys(document.paths).sort()).toEqual([
      '/actions',
      '/actions/batch',
      '/actions/preview',
      '/actions/stats',
      '/actions/{id}',
      '/actions/{id}/cancel',
      '/actions/{id}/history',
      '/actions/{id}/occurrences',
      '/actions/{id}/pause',
      '/actions/{id}/resume',
      '/actions/{id}/retry',
      '/actions/{id}/skip',
      '/admin/api/tenants',
      '/admin/api/tenants/{id}',
      '/admin/api/tenants/{id}/keys',
      '/admin/api/tenants/{id}/keys/{keyId}',
      '/calendars',
      '/calendars/{name}',
      '/health',
      '/health/live',
      '/health/ready',
      '/webhooks',
      '/webhooks/{id}',
      '/webhooks/{id}/deliveries',
      '/webhooks/{id}/deliveries/{deliveryId}/redeliver',
      '/webhooks/{id}/test',
    ]);
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual([
      'X-Punctual-Key',
      'X-Punctual-Nonce',
      'X-Punctual-Signature',
      'X-Punctual-Timestamp',
      'admin',
    ]);
    expect(document.paths['/actions'].post.parameters).toContainEqual(expect.objectContaining({ name: 'Idempotency-Key', in: 'header' }));
  });
});
