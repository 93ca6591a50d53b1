import { QueueableDelivery } from '@app/database';

/** The queue deliveries wait in (action types are upper case, so it never clashes with one). */
export const WEBHOOK_QUEUE = 'webhooks';

/** Ids only: the worker loads the delivery and its event from Postgres. */
export interface WebhookJobData {
  deliveryId: string;
  /** Attempts made before this job's one. */
  attempts: number;
  /** Who receives it (a subscription id, or a digest of a callback URL), to share out concurrency. */
  target: string;
}

/** One job per attempt of a delivery: `<delivery id>_a<attempt>`. */
export function webhookJobIdFor(delivery: Pick<QueueableDelivery, 'id' | 'attempts'>): string {
  return `${delivery.id}_a${delivery.attempts + 1}`;
}
