import { INestApplicationContext } from '@nestjs/common';
import { AddressInfo, Server, Socket, createServer } from 'node:net';
import { HttpReceiver, SmtpReceiver, waitUntil } from '@app/testing';
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
  const sockets = new Set<Socket>();
  // Accepts connections and never says a word, as a hung mail server would.
  const silent: Server = createServer((socket) => void sockets.add(socket));

  beforeAll(async () => {
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const env = { SMTP_URL: `smtp://127.0.0.1:${(silent.address() as AddressInfo).port}`, WEBHOOK_TIMEOUT_MS: '300' };
    api = await startCleanApiApp(undefined, env);
    worker = await startWorker({ env });
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('times the attempt out like an HTTP receiver, and retries it', async () => {
    const { id } = await subscribe(api.client, 'mailto:ops@example.com', { events: ['webhook.test'] });
    expect((await api.client.post(`/webhooks/${id}/test`)).status).toBe(202);
    const [delivery] = await deliveriesWhen(api.client, id, (items) => items[0]?.attempts >= 2);
    expect(delivery.status).not.toBe('DELIVERED');
    expect(delivery.lastError).toBe('no answer from the SMTP server within 300 ms');
  });
});
