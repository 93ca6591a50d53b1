import { FulfillmentContext } from '@punctual/sdk';
import { NotificationType } from '../send-notification.data';

/** A message ready to go out on one channel. */
export interface RenderedNotification {
  channel: NotificationType;
  /** Phone number, email address or device token. */
  to: string;
  subject: string;
  body: string;
}

/**
 * Sends on one channel and returns a note for the action's history (a message id…). Throw
 * to have the attempt retried. To plug in your own, provide a class for the channel's token:
 * `{ provide: SMS_PROVIDER, useClass: TwilioSmsProvider }` in `SendNotificationModule`.
 */
export interface NotificationProvider {
  send(message: RenderedNotification, context: FulfillmentContext): Promise<string>;
}

export const SMS_PROVIDER = Symbol('SMS_PROVIDER');
export const EMAIL_PROVIDER = Symbol('EMAIL_PROVIDER');
export const PUSH_PROVIDER = Symbol('PUSH_PROVIDER');
