import { Module } from '@nestjs/common';
import { OutboundModule } from '@app/outbound';
import { SignatureModule } from '@app/signature';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

/** The signed `/webhooks` routes: subscriptions and their deliveries. */
@Module({ imports: [SignatureModule, OutboundModule], controllers: [WebhooksController], providers: [WebhooksService] })
export class WebhooksModule {}
