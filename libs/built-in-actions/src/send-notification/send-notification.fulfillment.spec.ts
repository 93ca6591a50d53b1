import { Test } from '@nestjs/testing';
import { PunctualConfig } from '@app/config';
import { SilentServer, SmtpReceiver, fulfillmentContext, waitUntil } from '@app/testing';
import { SendNotificationData } from './send-notification.data';
import { SendNotificationFulfillment } from './send-notification.fulfillment';
import { SendNotificationModule } from './send-notification.module';

const context = fulfillmentContext({ actionId: 'id-1', occurrence: 2, idempotencyKey: 'id-1:2' });
const seed: SendNotificationData = {
  mobile: '60123456789',
  subject: 'Test',
  name: 'Joojo',
  templateType: 'USER_LATE_PAYMENT_NOTIFICATION',
  notificationType: 'SMS',
};

async function fulfillmentWith(smtpUrl: string | null) {
  const config = { smtp: { url: smtpUrl, from: 'Punctual <no-reply@punctual.test>', timeoutMs: 10_000 } };
  const configModule = {
    module: class StubConfig {},
    global: true,
    providers: [{ provide: PunctualConfig, useValue: config }],
    exports: [PunctualConfig],
  };
  const moduleRef = await Test.createTestingModule({ imports: [configModule, SendNotificationModule] }).compile();
  await moduleRef.init();
  return { fulfillment: moduleRef.get(SendNotificationFulfillment), close: () => moduleRef.close() };
}

describe('SendNotificationFulfillment', () => {
  const smtp = new SmtpReceiver();
  beforeAll(() => smtp.start());
  afterAll(() => smtp.stop());

  it('renders the template and records an SMS when no SMS provider is configured', async () => {
    const { fulfillment, close } = await fulfillmentWith(null);
    const result = await fulfillment.fulfill(seed, context);
    expect(result.note).toBe(
      'SMS to 60123456789 recorded (no SMS provider configured): "Test" — Hi Joojo, your payment is overdue. Please settle it as soon as possible to keep your service running.',
    );
    await close();
  });

  it('records PUSH, and EMAIL too while SMTP_URL is unset', async () => {
    const { fulfillment, close } = await fulfillmentWith(null);
    expect((await fulfillment.fulfill({ ...seed, notificationType: 'PUSH', deviceToken: 'tok-1' }, context)).note).toMatch(/^PUSH to tok-1 recorded/);
    expect((await fulfillment.fulfill({ ...seed, notificationType: 'EMAIL', email: 'joojo@example.com' }, context)).note).toMatch(
      /^EMAIL to joojo@example.com recorded/,
    );
    await close();
  });

  it('sends EMAIL over real SMTP with the rendered subject, body and idempotency key', async () => {
    const { fulfillment, close } = await fulfillmentWith(smtp.url());
    const result = await fulfillment.fulfill({ ...seed, notificationType: 'EMAIL', email: 'joojo@example.com', subject: 'Payment overdue' }, context);
    expect(result.note).toMatch(/^EMAIL sent to joojo@example.com \(message id <.+>\)$/);
    const [mail] = smtp.messages;
    expect(mail.to).toEqual(['joojo@example.com']);
    expect(mail.from).toBe('no-reply@punctual.test');
    expect(mail.raw).toMatch(/^Subject: Payment overdue$/m);
    expect(mail.raw).toMatch(/^X-Punctual-Idempotency-Key: id-1:2$/m);
    expect(mail.raw).toContain('Hi Joojo, your payment is overdue.');
    await close();
  });

  it('stops waiting for an SMTP server that never answers as soon as the attempt is stopped', async () => {
    const silent = await new SilentServer().start();
    const { fulfillment, close } = await fulfillmentWith(`smtp://127.0.0.1:${silent.port}`);
    const attempt = new AbortController();
    const sending = fulfillment.fulfill({ ...seed, notificationType: 'EMAIL', email: 'joojo@example.com' }, { ...context, signal: attempt.signal });
    await waitUntil('the connection to the SMTP server', () => silent.connections > 0);
    attempt.abort(new Error('the worker is stopping'));
    await expect(sending).rejects.toThrow('stopped before the SMTP server answered');
    await close();
    await silent.stop();
  });
});
