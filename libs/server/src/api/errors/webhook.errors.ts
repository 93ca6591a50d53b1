import { ErrorCode, PunctualDomainError } from '@app/domain';

/** The id names no subscription. → 404 */
export class WebhookNotFoundError extends PunctualDomainError {
  readonly code = ErrorCode.WebhookNotFound;

  constructor(readonly id: string) {
    super(`Webhook subscription ${id} not found`);
  }
}

/** Subscriptions need SECRET_KEY to keep their secrets encrypted. → 503 */
export class WebhooksNotConfiguredError extends PunctualDomainError {
  readonly code = ErrorCode.WebhooksNotConfigured;

  constructor() {
    super('Webhook subscriptions are turned off: set SECRET_KEY (see .env.example) and restart the API');
  }
}

/** Every event fans out to every subscription that wants it, so their number is bounded. → 409 */
export class TooManySubscriptionsError extends PunctualDomainError {
  readonly code = ErrorCode.TooManySubscriptions;

  constructor(max: number) {
    super(`There are already ${max} webhook subscriptions, the most Punctual keeps; delete one before adding another`);
  }
}

/** The delivery id names no delivery of that subscription: none ever did, or its event is past retention (deleted, or about to be). → 404 */
export class DeliveryNotFoundError extends PunctualDomainError {
  readonly code = ErrorCode.DeliveryNotFound;

  constructor(subscriptionId: string, deliveryId: string) {
    super(
      `Delivery ${deliveryId} of webhook subscription ${subscriptionId} not found; retention deletes a delivery with its event once the event is past RETENTION_DAYS`,
    );
  }
}

/** Only a finished delivery is sent again on demand: a pending one is on its way already. → 409 */
export class DeliveryPendingError extends PunctualDomainError {
  readonly code = ErrorCode.DeliveryPending;

  constructor(deliveryId: string) {
    super(`Delivery ${deliveryId} is still pending; it is retried on its own. Redeliver it once it is DELIVERED or FAILED`);
  }
}
