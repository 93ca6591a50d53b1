import { standardWebhookSignature } from '@punctual/contract';

/** The three Standard Webhooks headers that let a receiver check who sent a body, and when. */
export interface StandardWebhookHeaders {
  readonly 'webhook-id': string;
  readonly 'webhook-timestamp': string;
  readonly 'webhook-signature': string;
}

export interface StandardWebhookMessage {
  /** The same on every attempt to deliver one message, so a receiver can drop duplicates. */
  readonly id: string;
  readonly timestamp: Date;
  /** Exactly the bytes that are sent. */
  readonly body: string;
}

/**
 * Signs a body per Standard Webhooks: `v1,` + base64 of HMAC-SHA256 over `id.timestamp.body`,
 * where timestamp is in Unix seconds. `key` is the raw secret: an API key's secret as UTF-8
 * bytes, or a webhook subscription's `whsec_` secret decoded from base64.
 */
export function standardWebhookHeaders(message: StandardWebhookMessage, key: Uint8Array): StandardWebhookHeaders {
  const timestamp = webhookTimestamp(message.timestamp);
  return {
    'webhook-id': message.id,
    'webhook-timestamp': timestamp,
    'webhook-signature': standardWebhookSignature(key, message.id, timestamp, message.body),
  };
}

/** `webhook-timestamp`: Unix seconds. */
export function webhookTimestamp(time: Date): string {
  return String(Math.floor(time.getTime() / 1000));
}
