import { Module } from '@nestjs/common';
import { MailModule, OutboundModule } from '@app/outbound';
import { SignatureModule } from '@app/signature';
import { WebhookQueueModule } from '@app/webhooks';
import { webhookConsumerProvider } from './webhook-consumer';
import { WebhookSweepLoop } from './webhook-sweep.loop';
import { WebhookSender } from './webhook-sender';

/** Delivers lifecycle webhooks from the Postgres outbox, through the webhook queue. */
@Module({
  imports: [OutboundModule, MailModule, WebhookQueueModule, SignatureModule],
  providers: [WebhookSweepLoop, webhookConsumerProvider, WebhookSender],
})
export class WebhooksModule {}
