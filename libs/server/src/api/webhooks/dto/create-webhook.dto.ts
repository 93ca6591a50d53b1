import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsIn, IsString, MaxLength } from 'class-validator';
import { WEBHOOK_EVENT_TYPES, WebhookEventType } from '@app/domain';
import { CreateWebhookRequest } from '@punctual/contract';
import { IsStorableText } from '../../input/storable-text.decorator';
import { OptionalNotNull } from '../../input/not-null';

const EVENTS_MESSAGE = `each value in events must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}`;

/** Body of `POST /webhooks`; any other field is rejected. */
export class CreateWebhookDto implements CreateWebhookRequest {
  @ApiProperty({ example: 'https://example.com/punctual-events', description: 'https://, http:// or mailto: (an email through SMTP_URL)' })
  @IsString()
  url: string;

  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, isArray: true, example: ['action.failed'] })
  @IsArray()
  @ArrayMinSize(1, { message: 'events must list at least one event type' })
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @ArrayUnique({ message: 'events must not list a type twice' })
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true, message: EVENTS_MESSAGE })
  events: WebhookEventType[];

  @ApiPropertyOptional({ type: [String], example: ['HTTP_REQUEST'], description: 'Only events of actions of these types (default: every type)' })
  @OptionalNotNull()
  @IsArray()
  @ArrayMinSize(1, { message: 'actionTypes must list at least one type, or be left out for every type' })
  @ArrayMaxSize(100)
  @ArrayUnique()
  @IsString({ each: true })
  actionTypes?: string[];

  @ApiPropertyOptional({ example: 'Billing alerts' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(500)
  @IsStorableText()
  description?: string;
}
