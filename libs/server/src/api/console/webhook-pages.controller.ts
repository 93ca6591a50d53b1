import { Body, Controller, Get, HttpStatus, Param, Post, Query, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Response } from 'express';
import { EVERY_TENANT } from '@app/database';
import { ERROR_ANSWERS } from '../errors/error-replies';
import { DeliveryPendingError } from '../errors/webhook.errors';
import { WebhooksService } from '../webhooks/webhooks.service';
import { ConsoleExceptionFilter } from './console-exception.filter';
import { RawInput, parseId, textField } from './console-input';
import { ConsoleTenants } from './tenant-filter';
import { CsrfGuard } from './security/csrf.guard';
import { CsrfToken } from './security/csrf-token.decorator';
import { queryString } from './views/html';
import { Notice, layout, sendPage } from './views/layout.view';
import { TenantFilter } from './views/tenant-filter.view';
import { webhooksView } from './views/webhooks.view';

/** How many of each subscription's latest deliveries the page lists. */
const DELIVERIES_SHOWN = 10;

/**
 * `/admin/webhooks`: the subscriptions (of every tenant, or of the one `?tenant=` names) and what
 * was delivered to them, through the same `WebhooksService` as the REST API; a redelivery it
 * refuses is shown with its reason.
 */
@ApiExcludeController()
@Controller('admin/webhooks')
@UseFilters(ConsoleExceptionFilter)
export class WebhookPagesController {
  constructor(
    private readonly webhooks: WebhooksService,
    private readonly tenants: ConsoleTenants,
  ) {}

  @Get()
  async index(@Query() query: RawInput, @CsrfToken() csrfToken: string, @Res() res: Response): Promise<void> {
    const redelivered = textField(query, 'redelivered');
    const notice: Notice | undefined = redelivered
      ? { kind: 'success', text: `Delivery ${parseId(redelivered, 'redelivered', 'a delivery id')} is PENDING again: it is sent once more.` }
      : undefined;
    await this.send(res, HttpStatus.OK, csrfToken, await this.tenants.filter(query), notice);
  }

  @Post(':id/deliveries/:deliveryId/redeliver')
  @UseGuards(CsrfGuard)
  async redeliver(
    @Param('id') rawId: string,
    @Param('deliveryId') rawDelivery: string,
    @Body() body: RawInput,
    @CsrfToken() csrfToken: string,
    @Res() res: Response,
  ): Promise<void> {
    const id = parseId(rawId, 'id', 'a subscription id');
    const deliveryId = parseId(rawDelivery, 'deliveryId', 'a delivery id');
    // The page it was sent from, when limited to one tenant, says so in a field of the form.
    const tenant = await this.tenants.filter(body);
    try {
      await this.webhooks.redeliver(id, EVERY_TENANT, deliveryId);
    } catch (error) {
      if (!(error instanceof DeliveryPendingError)) throw error;
      return this.send(res, ERROR_ANSWERS[error.code].status, csrfToken, tenant, { kind: 'error', text: error.message });
    }
    // Back to a page that a reload does not send again.
    res.redirect(HttpStatus.SEE_OTHER, `/admin/webhooks${queryString({ tenant: tenant.selected, redelivered: deliveryId })}`);
  }

  private async send(res: Response, status: HttpStatus, csrfToken: string, tenant: TenantFilter, notice?: Notice): Promise<void> {
    const subscriptions = await this.webhooks.list(tenant.scope);
    const withDeliveries = await Promise.all(
      subscriptions.map(async (subscription) => ({
        subscription,
        deliveries: (await this.webhooks.deliveries(subscription.id, EVERY_TENANT, DELIVERIES_SHOWN)).items,
      })),
    );
    const body = webhooksView(withDeliveries, DELIVERIES_SHOWN, tenant, csrfToken);
    sendPage(res, status, layout({ title: 'Webhooks', section: 'webhooks', tenant: tenant.selected, notice, body }));
  }
}
