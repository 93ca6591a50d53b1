import { ErrorCode, PunctualDomainError } from '@app/domain';

/** The id names no subscription. → 404 */
export class WebhookNotFoundError extends PunctualDomainError {
  readonly code = ErrorCode.WebhookNotFound;

  constructor(readonly id: string) {
    super(`Webhook subscription ${id} not found`);
  }
}

/** Subscriptions need WEBHOOK_SECRET_KEY to keep their secrets encrypted. → 503 */
export class WebhooksNotConfiguredError extends PunctualDomainError {
  readonly code = ErrorCode.WebhooksNotConfigured;

  constructor() {
    super('Webhook subscriptions are turned off: set WEBHOOK_SECRET_KEY (see .env.example) and restart the API');
  }
}

/** Every event fans out to every subscription that wants it, so their number is bounded. → 409 */
export class TooManySubscriptionsError extends PunctualDomainError {
  readonly code = ErrorCode.TooManySubscriptions;

  constructor(max: number) {
    super(`There are already ${max} webhook subscriptions, the most Punctual keeps; delete one before adding another`);
  }
}
