import { Body, Controller, Delete, Get, Header, HttpCode, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiServiceUnavailableResponse,
} from '@nestjs/swagger';
import { TenantScope } from '@app/database';
import { Caller, VerifiedKey } from '@app/signature';
import { CallerScope } from '../input/caller-scope.decorator';
import { InvalidRequestError } from '../errors/action.errors';
import { ApiRefusals, Summary } from '../http/api-refusals.decorator';
import { SignedRoutes } from '../http/signed-routes.decorator';
import { PageQuery } from '../input/page.query';
import { CreateWebhookDto } from './dto/create-webhook.dto';
import { CreatedWebhookResponse, DeliveryPageResponse, DeliveryResponse, WebhookListResponse, WebhookResponse } from './dto/webhook.response';
import { WebhooksService } from './webhooks.service';

/** A path parameter that must be a UUID; anything else is a 400 that names it. */
const uuidParam = (name: string) => new ParseUUIDPipe({ exceptionFactory: () => new InvalidRequestError(`${name} must be a UUID`) });
const ID = uuidParam('id');

@SignedRoutes('webhooks')
@Controller('webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  /** Its answer holds the secret, so no cache along the way may keep it. */
  @Post()
  @Summary('Subscribe to webhook events')
  @Header('Cache-Control', 'no-store')
  @ApiCreatedResponse({ type: CreatedWebhookResponse, description: 'The subscription, with its secret: the only time it is shown' })
  @ApiBadRequestResponse({ description: 'Invalid URL or destination, no or unknown event types, unknown action types' })
  @ApiServiceUnavailableResponse({ description: 'SECRET_KEY is not set, or Postgres is out of reach' })
  @ApiConflictResponse({ description: 'The most subscriptions Punctual keeps exist already: delete one first' })
  async create(@Body() dto: CreateWebhookDto, @Caller() caller: VerifiedKey): Promise<CreatedWebhookResponse> {
    const { subscription, secret } = await this.webhooks.create(dto, caller.tenant);
    return { ...WebhookResponse.from(subscription), secret };
  }

  @Get()
  @Summary('List webhook subscriptions')
  @ApiOkResponse({ type: WebhookListResponse })
  async list(@CallerScope() scope: TenantScope): Promise<WebhookListResponse> {
    return { items: (await this.webhooks.list(scope)).map(WebhookResponse.from) };
  }

  @Get(':id')
  @Summary('Get a webhook subscription')
  @ApiRefusals.badRequest('id is not a UUID')
  @ApiOkResponse({ type: WebhookResponse })
  @ApiNotFoundResponse()
  async get(@Param('id', ID) id: string, @CallerScope() scope: TenantScope): Promise<WebhookResponse> {
    return WebhookResponse.from(await this.webhooks.get(id, scope));
  }

  @Delete(':id')
  @Summary('Delete a webhook subscription')
  @ApiRefusals.badRequest('id is not a UUID')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Deleted; its pending deliveries are dropped' })
  @ApiNotFoundResponse()
  async remove(@Param('id', ID) id: string, @CallerScope() scope: TenantScope): Promise<void> {
    await this.webhooks.remove(id, scope);
  }

  @Get(':id/deliveries')
  @Summary("List a subscription's deliveries")
  @ApiRefusals.badRequest('id is not a UUID, or a bad limit or cursor')
  @ApiOkResponse({ type: DeliveryPageResponse, description: 'Newest first' })
  @ApiNotFoundResponse()
  async deliveries(@Param('id', ID) id: string, @Query() query: PageQuery, @CallerScope() scope: TenantScope): Promise<DeliveryPageResponse> {
    const page = await this.webhooks.deliveries(id, scope, query.limit, query.cursor);
    return { items: page.items.map(DeliveryResponse.from), nextCursor: page.nextCursor };
  }

  @Post(':id/test')
  @Summary('Send a test event to a subscription')
  @ApiRefusals.badRequest('id is not a UUID')
  @HttpCode(202)
  @ApiAcceptedResponse({ type: DeliveryResponse, description: 'A webhook.test event is queued for this subscription' })
  @ApiNotFoundResponse()
  async test(@Param('id', ID) id: string, @CallerScope() scope: TenantScope): Promise<DeliveryResponse> {
    return DeliveryResponse.from(await this.webhooks.test(id, scope));
  }

  @Post(':id/deliveries/:deliveryId/redeliver')
  @Summary('Deliver a delivery again')
  @ApiRefusals.badRequest('id or deliveryId is not a UUID')
  @HttpCode(202)
  @ApiAcceptedResponse({
    type: DeliveryResponse,
    description: 'PENDING again and due now: its event is sent again, with the same webhook-id; attempts keeps counting',
  })
  @ApiConflictResponse({ description: 'The delivery is still PENDING: it is retried on its own' })
  @ApiNotFoundResponse({ description: 'No such subscription, or no such delivery of it' })
  async redeliver(
    @Param('id', ID) id: string,
    @Param('deliveryId', uuidParam('deliveryId')) deliveryId: string,
    @CallerScope() scope: TenantScope,
  ): Promise<DeliveryResponse> {
    return DeliveryResponse.from(await this.webhooks.redeliver(id, scope, deliveryId));
  }
}
