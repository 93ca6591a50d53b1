import { ApiProperty } from '@nestjs/swagger';
import { DeliveryRecord, DeliveryStatus, SubscriptionRecord } from '@app/database';
import { WEBHOOK_EVENT_TYPES } from '@app/domain';
import { CreatedWebhookResource, DeliveryPage, DeliveryResource, WebhookList, WebhookResource } from '@punctual/contract';

export class WebhookResponse implements WebhookResource {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() url: string;
  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, isArray: true }) events: string[];
  @ApiProperty({ type: [String], nullable: true, description: 'null: every action type' }) actionTypes: string[] | null;
  @ApiProperty({ type: 'string', nullable: true }) description: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;

  static from(subscription: SubscriptionRecord): WebhookResponse {
    const { id, url, events, actionTypes, description, createdAt } = subscription;
    return { id, url, events, actionTypes, description, createdAt: createdAt.toISOString() };
  }
}

export class CreatedWebhookResponse extends WebhookResponse implements CreatedWebhookResource {
  @ApiProperty({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', description: 'Shown only in this answer: store it to verify deliveries' })
  secret: string;
}

export class WebhookListResponse implements WebhookList {
  @ApiProperty({ type: [WebhookResponse] }) items: WebhookResponse[];
}

export class DeliveryResponse implements DeliveryResource {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES }) type: string;
  @ApiProperty({ type: 'string', format: 'uuid', nullable: true }) actionId: string | null;
  @ApiProperty({ enum: ['PENDING', 'DELIVERED', 'FAILED'] }) status: DeliveryStatus;
  @ApiProperty({ type: 'integer' }) attempts: number;
  @ApiProperty({ type: 'integer', nullable: true }) lastStatusCode: number | null;
  @ApiProperty({ type: 'string', nullable: true }) lastError: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) deliveredAt: string | null;

  static from(delivery: DeliveryRecord): DeliveryResponse {
    return { ...delivery, createdAt: delivery.createdAt.toISOString(), deliveredAt: delivery.deliveredAt?.toISOString() ?? null };
  }
}

export class DeliveryPageResponse implements DeliveryPage {
  @ApiProperty({ type: [DeliveryResponse] }) items: DeliveryResponse[];
  @ApiProperty({ type: 'string', nullable: true }) nextCursor: string | null;
}
