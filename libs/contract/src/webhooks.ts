// The `/webhooks` API as it travels (HTTP only).

/** The events a subscription can ask for. */
export type WebhookEventName =
  | 'action.succeeded'
  | 'action.attempt_failed'
  | 'action.failed'
  | 'action.no_action'
  | 'action.canceled'
  | 'action.paused'
  | 'action.resumed'
  | 'action.occurrence_skipped'
  | 'webhook.test';

/** The body of `POST /webhooks`. */
export interface CreateWebhookRequest {
  /** `https://`, `http://` or `mailto:`. */
  url: string;
  events: WebhookEventName[];
  /** Only events of actions of these types (default: every type). */
  actionTypes?: string[];
  description?: string;
}

/** A subscription as `GET /webhooks` and `GET /webhooks/:id` answer it. */
export interface WebhookResource {
  id: string;
  url: string;
  events: string[];
  /** null: every action type. */
  actionTypes: string[] | null;
  description: string | null;
  createdAt: string;
}

/** The answer of `POST /webhooks`: the only time the signing secret is shown. */
export interface CreatedWebhookResource extends WebhookResource {
  secret: string;
}

export interface WebhookList {
  items: WebhookResource[];
}

export type DeliveryStatusName = 'PENDING' | 'DELIVERED' | 'FAILED';

/** One event's delivery to a subscription. */
export interface DeliveryResource {
  id: string;
  type: string;
  actionId: string | null;
  status: DeliveryStatusName;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

/** `GET /webhooks/:id/deliveries`, newest first. */
export interface DeliveryPage {
  items: DeliveryResource[];
  nextCursor: string | null;
}
