import { INestApplicationContext } from '@nestjs/common';
import { SmtpReceiver, waitUntil } from '@app/testing';
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
