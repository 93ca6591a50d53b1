import { Module } from '@nestjs/common';
import { OutboundModule } from '@app/outbound';
import { MailModule } from '../mail/mail.module';
import { WebhookConsumer } from './webhook-consumer';
import { WebhookPumpLoop } from './webhook-pump.loop';
import { WebhookSender } from './webhook-sender';

/** Delivers lifecycle webhooks from the Postgres outbox, through the webhook queue. */
@Module({ imports: [OutboundModule, MailModule], providers: [WebhookPumpLoop, WebhookConsumer, WebhookSender] })
export class WebhooksModule {}
