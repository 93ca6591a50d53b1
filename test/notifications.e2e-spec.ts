import { INestApplicationContext } from '@nestjs/common';
import { SilentServer, SmtpReceiver, waitUntil } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { notificationExample } from './support/fixtures';
import { startWorker } from './support/worker-test-app';

describe('SEND_NOTIFICATION by EMAIL over real SMTP, end to end', () => {
  let api: ApiTestApp;
  let worker: INestApplicationContext;
  const smtp = new SmtpReceiver();

  beforeAll(async () => {
    await smtp.start();
    api = await startCleanApiApp();
    worker = await startWorker({ env: { SMTP_URL: smtp.url(), SMTP_FROM: 'Billing <billing@punctual.test>' } });
  });
  afterAll(async () => {
    await worker.close();
    await api.close();
    await smtp.stop();
  });

  it('delivers the rendered email and records it in the history', async () => {
    const data = {
      email: 'joojo@example.com',
      subject: 'Your payment is late',
      name: 'Joojo',
      templateType: 'USER_LATE_PAYMENT_NOTIFICATION',
      notificationType: 'EMAIL',
    };
    const action = (await api.client.post('/actions', notificationExample(0, { data, repeat: false }))).body;
    const mail = await waitUntil('the email to arrive', () => smtp.messages.find((m) => m.to.includes('joojo@example.com')));
    expect(mail.from).toBe('billing@punctual.test');
    expect(mail.raw).toMatch(/^Subject: Your payment is late$/m);
    expect(mail.raw).toContain('Hi Joojo, your payment is overdue.');
    expect(mail.raw).toMatch(new RegExp(`^X-Punctual-Idempotency-Key: ${action.id}:1$`, 'm'));
    const history = await waitUntil('the action to complete', async () => {
      const entries = (await api.client.get(`/actions/${action.id}/history`)).body;
      return entries.at(-1).to === 'COMPLETED' ? entries : null;
    });
    expect(history.at(-1).note).toMatch(/^EMAIL sent to joojo@example.com \(message id/);
  });
});

describe('SEND_NOTIFICATION by EMAIL: no credentials in clear, no attempt held by a hanging server', () => {
  let api: ApiTestApp;
  let worker: INestApplicationContext | undefined;
  const smtp = new SmtpReceiver();
  const silent = new SilentServer();

  beforeAll(async () => {
    await Promise.all([smtp.start(), silent.start()]);
    api = await startCleanApiApp();
  });
  afterEach(async () => {
    await worker?.close();
    worker = undefined;
  });
  afterAll(async () => {
    await api.close();
    await Promise.all([smtp.stop(), silent.stop()]);
  });

  const withCredentials = (query = '') => `smtp://billing:mail-password@127.0.0.1:${new URL(smtp.url()).port}${query}`;
  const emailTo = async (email: string) => {
    const data = { email, subject: 'Your payment is late', name: 'Joojo', templateType: 'USER_LATE_PAYMENT_NOTIFICATION', notificationType: 'EMAIL' };
    const retryPolicy = { maxRetries: 0, backoff: { type: 'fixed', delayMs: 100 } };
    return (await api.client.post('/actions', notificationExample(0, { data, repeat: false, retryPolicy }))).body;
  };
  const ended = (id: string) =>
    waitUntil('the action to end', async () => {
      const action = (await api.client.get(`/actions/${id}`)).body;
      return ['COMPLETED', 'FAILED'].includes(action.status) ? action : null;
    });

  it('sends the credentials of SMTP_URL to a server without STARTTLS only when the URL says ?requireTLS=false', async () => {
    worker = await startWorker({ env: { SMTP_URL: withCredentials() } });
    const refused = await ended((await emailTo('no-tls@example.com')).id);
    expect(refused.status).toBe('FAILED');
    expect(refused.lastError).toMatch(/^not sent: the SMTP server did not upgrade the connection to TLS .* add requireTLS=false to SMTP_URL/);
    expect(smtp.logins).toEqual([]);
    expect(smtp.messages).toEqual([]);

    await worker.close();
    worker = await startWorker({ env: { SMTP_URL: withCredentials('?requireTLS=false') } });
    expect((await ended((await emailTo('clear@example.com')).id)).status).toBe('COMPLETED');
    expect(smtp.logins).toEqual(['billing']);
    expect(smtp.messages.map((m) => m.to)).toEqual([['clear@example.com']]);
  });

  it('a server that never answers: the attempt fails once SMTP_TIMEOUT_MS has passed', async () => {
    worker = await startWorker({ env: { SMTP_URL: `smtp://127.0.0.1:${silent.port}`, SMTP_TIMEOUT_MS: '300' } });
    const action = await ended((await emailTo('hung@example.com')).id);
    expect(action).toMatchObject({ status: 'FAILED', lastError: 'no answer from the SMTP server within 300 ms' });
    const [started, failed] = (await api.client.get(`/actions/${action.id}/history`)).body.slice(1);
    expect(failed).toMatchObject({ from: 'IN_PROGRESS', to: 'FAILED' });
    // Far below nodemailer's own 30 s wait for a greeting, with room for a busy machine.
    expect(Date.parse(failed.at) - Date.parse(started.at)).toBeLessThan(5_000);
  });
});
