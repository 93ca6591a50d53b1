import { INestApplicationContext } from '@nestjs/common';
import { HttpReceiver, SilentServer, SmtpReceiver, waitUntil } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { httpRequestExample } from './support/fixtures';
import { deliveriesWhen, subscribe } from './support/webhooks';
import { startWorker } from './support/worker-test-app';

describe('An email subscription', () => {
  let api: ApiTestApp;
  let worker: INestApplicationContext;
  const smtp = new SmtpReceiver();
  const target = new HttpReceiver();

  beforeAll(async () => {
    await Promise.all([smtp.start(), target.start()]);
    const env = { SMTP_URL: smtp.url(), SMTP_FROM: 'Punctual <alerts@punctual.test>' };
    api = await startCleanApiApp(undefined, env);
    worker = await startWorker({ env });
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await Promise.all([smtp.stop(), target.stop()]);
  });

  it('receives action.failed at a real SMTP server when an action finally fails', async () => {
    const { id } = await subscribe(api.client, 'mailto:ops@example.com', { events: ['action.failed'] });
    target.failNext(1, 500);
    const created = await api.client.post(
      '/actions',
      httpRequestExample(0, { data: { url: target.url() }, retryPolicy: { maxRetries: 0, backoff: { type: 'fixed', delayMs: 100 } } }),
    );
    const actionId = created.body.id;
    const [mail] = await waitUntil('the email', () => (smtp.messages.length > 0 ? smtp.messages : null));
    expect(mail.to).toEqual(['ops@example.com']);
    expect(mail.from).toBe('alerts@punctual.test');
    // Long header lines are folded, and the body is quoted-printable with soft line breaks.
    const raw = mail.raw.replace(/\r\n[ \t]/g, ' ').replace(/=\r\n/g, '');
    expect(raw).toMatch(new RegExp(`Subject: \\[Punctual\\] action.failed: HTTP_REQUEST ${actionId}`));
    expect(raw).toMatch(/webhook-id: [0-9a-f-]{36}/i);
    const body = raw.slice(raw.indexOf('\r\n\r\n'));
    expect(body).toContain('"type": "action.failed"');
    expect(body).toContain(`"id": "${actionId}"`);
    const [delivery] = await deliveriesWhen(api.client, id, (items) => items[0]?.status === 'DELIVERED');
    expect(delivery).toMatchObject({ type: 'action.failed', actionId, attempts: 1, lastStatusCode: null });
    expect(smtp.messages).toHaveLength(1);
  });
});

describe('An email subscription whose SMTP server never answers', () => {
  let api: ApiTestApp;
  let worker: INestApplicationContext;
  const silent = new SilentServer();

  beforeAll(async () => {
    await silent.start();
    const env = { SMTP_URL: `smtp://127.0.0.1:${silent.port}`, WEBHOOK_TIMEOUT_MS: '300' };
    api = await startCleanApiApp(undefined, env);
    worker = await startWorker({ env });
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await silent.stop();
  });

  it('times the attempt out like an HTTP receiver, and retries it', async () => {
    const { id } = await subscribe(api.client, 'mailto:ops@example.com', { events: ['webhook.test'] });
    expect((await api.client.post(`/webhooks/${id}/test`)).status).toBe(202);
    const [delivery] = await deliveriesWhen(api.client, id, (items) => items[0]?.attempts >= 2);
    expect(delivery.status).not.toBe('DELIVERED');
    expect(delivery.lastError).toBe('no answer from the SMTP server within 300 ms');
  });
});

describe('An email subscription, with credentials in SMTP_URL and a server that offers no TLS', () => {
  let api: ApiTestApp;
  let worker: INestApplicationContext | undefined;
  const smtp = new SmtpReceiver();

  beforeAll(async () => {
    await smtp.start();
    api = await startCleanApiApp(undefined, { SMTP_URL: smtp.url() });
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await smtp.stop();
  });

  const withCredentials = (query = '') => `smtp://alerts:mail-password@127.0.0.1:${new URL(smtp.url()).port}${query}`;
  const testEvent = async () => {
    const { id } = await subscribe(api.client, 'mailto:ops@example.com', { events: ['webhook.test'] });
    expect((await api.client.post(`/webhooks/${id}/test`)).status).toBe(202);
    return id;
  };

  it('is not sent, and says why, unless SMTP_URL says requireTLS=false: the credentials never reach the server otherwise', async () => {
    worker = await startWorker({ env: { SMTP_URL: withCredentials() } });
    // Every attempt fails alike, until none is left.
    const [refused] = await deliveriesWhen(api.client, await testEvent(), (items) => items[0]?.status === 'FAILED');
    expect(refused.lastError).toMatch(/^not sent: the SMTP server did not upgrade the connection to TLS .* add requireTLS=false to SMTP_URL/);
    expect(smtp.logins).toEqual([]);
    expect(smtp.messages).toEqual([]);

    await worker.close();
    worker = await startWorker({ env: { SMTP_URL: withCredentials('?requireTLS=false') } });
    await deliveriesWhen(api.client, await testEvent(), (items) => items[0]?.status === 'DELIVERED');
    expect(smtp.logins).toEqual(['alerts']);
    expect(smtp.messages.map((m) => m.to)).toEqual([['ops@example.com']]);
  });
});
