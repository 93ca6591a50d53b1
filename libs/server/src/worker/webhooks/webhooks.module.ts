import { Module } from '@nestjs/common';
import { MailModule, OutboundModule } from '@app/outbound';
import { SignatureModule } from '@app/signature';
import { WebhookQueueModule } from '@app/webhooks';
import { ExecutionModule } from '../execution/execution.module';
import { DeliveryWork } from './delivery-work';
import { WebhookSweepLoop } from './webhook-sweep.loop';
import { WebhookSender } from './webhook-sender';

/** Delivers lifecycle webhooks from the Postgres outbox, through the webhook queue, as durable work beside the actions'. */
@Module({
  imports: [OutboundModule, MailModule, WebhookQueueModule, SignatureModule, ExecutionModule],
  providers: [WebhookSweepLoop, DeliveryWork, WebhookSender],
})
export class WebhooksModule {}
