import { Inject } from '@nestjs/common';
import { ActionFulfillment, Fulfillment, FulfillmentContext, FulfillmentResult } from '@punctual/sdk';
import { SendNotificationData } from './send-notification.data';
import { SEND_NOTIFICATION } from './send-notification.type';
import { EMAIL_PROVIDER, NotificationProvider, PUSH_PROVIDER, SMS_PROVIDER } from './providers/notification-provider';
import { renderTemplate } from './templates/render-template';

/** Renders the template and sends it through the channel's provider. */
@Fulfillment(SEND_NOTIFICATION)
export class SendNotificationFulfillment implements ActionFulfillment<SendNotificationData> {
  private readonly providers: Record<SendNotificationData['notificationType'], NotificationProvider>;

  constructor(
    @Inject(SMS_PROVIDER) sms: NotificationProvider,
    @Inject(EMAIL_PROVIDER) email: NotificationProvider,
    @Inject(PUSH_PROVIDER) push: NotificationProvider,
  ) {
    this.providers = { SMS: sms, EMAIL: email, PUSH: push };
  }

  async fulfill(data: SendNotificationData, context: FulfillmentContext): Promise<FulfillmentResult> {
    const text = renderTemplate(data);
    const to = { SMS: data.mobile, EMAIL: data.email, PUSH: data.deviceToken }[data.notificationType]!;
    const note = await this.providers[data.notificationType].send({ channel: data.notificationType, to, ...text }, context);
    return { note };
  }
}
