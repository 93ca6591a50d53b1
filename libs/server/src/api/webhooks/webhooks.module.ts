import { Module } from '@nestjs/common';
import { OutboundModule } from '@app/outbound';
import { SignatureModule } from '@app/signature';
import { WebhookQueueModule } from '@app/webhooks';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

/** The signed `/webhooks` routes: subscriptions and their deliveries; the console serves them through the same service. */
@Module({
  imports: [SignatureModule, OutboundModule, WebhookQueueModule],
  controllers: [WebhooksController],
  providers: [WebhooksService],
  exports: [WebhooksService],
})
export class WebhooksModule {}
