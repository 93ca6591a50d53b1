import { Injectable } from '@nestjs/common';
import { PunctualConfig } from '@app/config';
import { SmtpMailer } from '@app/outbound';
import { FulfillmentContext } from '@punctual/sdk';
import { NotificationProvider, RenderedNotification } from './notification-provider';

/** EMAIL over real SMTP (`SMTP_URL`), carrying the occurrence's idempotency key as a header, within SMTP_TIMEOUT_MS and the attempt's signal. */
@Injectable()
export class SmtpEmailProvider implements NotificationProvider {
  constructor(
    private readonly mailer: SmtpMailer,
    private readonly config: PunctualConfig,
  ) {}

  async send(message: RenderedNotification, context: FulfillmentContext): Promise<string> {
    const info = await this.mailer.send(
      { to: message.to, subject: message.subject, text: message.body, headers: { 'X-Punctual-Idempotency-Key': context.idempotencyKey } },
      { timeoutMs: this.config.smtp.timeoutMs, signal: context.signal },
    );
    return `EMAIL sent to ${message.to} (message id ${info.messageId})`;
  }
}
