import { Module } from '@nestjs/common';
import { MailModule, OutboundModule } from '@app/outbound';
import { SignatureModule } from '@app/signature';
import { WebhookQueueModule } from '@app/webhooks';
import { webhookConsumerProvider } from './webhook-consumer';
import { WebhookPumpLoop } from './webhook-pump.loop';
import { WebhookSender } from './webhook-sender';

/** Delivers lifecycle webhooks from the Postgres outbox, through the webhook queue. */
@Module({
  imports: [OutboundModule, MailModule, WebhookQueueModule, SignatureModule],
  providers: [WebhookPumpLoop, webhookConsumerProvider, WebhookSender],
})
export class WebhooksModule {}
