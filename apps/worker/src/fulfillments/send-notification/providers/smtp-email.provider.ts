import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { Transporter, createTransport } from 'nodemailer';
import { SentMessageInfo } from 'nodemailer/lib/smtp-transport';
import { PunctualConfig } from '@app/config';
import { FulfillmentContext } from '@app/fulfillment';
import { NotificationProvider, RenderedNotification } from './notification-provider';

/** EMAIL over real SMTP (`SMTP_URL`), carrying the occurrence's idempotency key as a header. */
@Injectable()
export class SmtpEmailProvider implements NotificationProvider, OnModuleDestroy {
  /** Null when `SMTP_URL` is unset; the module then routes EMAIL to the recording provider. */
  private readonly transport: Transporter<SentMessageInfo> | null;

  constructor(private readonly config: PunctualConfig) {
    this.transport = config.smtp.url ? createTransport(config.smtp.url) : null;
  }

  async send(message: RenderedNotification, context: FulfillmentContext): Promise<string> {
    if (!this.transport) throw new Error('SMTP_URL is not set');
    const info = await this.transport.sendMail({
      from: this.config.smtp.from,
      to: message.to,
      subject: message.subject,
      text: message.body,
      headers: { 'X-Punctual-Idempotency-Key': context.idempotencyKey },
    });
    return `EMAIL sent to ${message.to} (message id ${info.messageId})`;
  }

  onModuleDestroy(): void {
    this.transport?.close();
  }
}
