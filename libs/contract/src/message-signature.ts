import { createHmac } from 'node:crypto';

/**
 * What a sibling app's handler receives as the data of a `MESSAGE` action's message. `signature`
 * covers `idempotencyKey`, `timestamp` and `payload` (`messageSignature`); `tenant` is the tenant
 * whose key signed it, so a receiver checks it against the secrets it holds for that tenant.
 */
export interface MessageEnvelope<Payload = unknown> {
  /** `<actionId>:<occurrence>`, the same on every attempt of an occurrence: handle each key once. */
  idempotencyKey: string;
  actionId: string;
  occurrence: number;
  /** The occurrence's scheduled time, ISO-8601 UTC. */
  scheduledFor: string;
  payload: Payload;
  /** The id of the tenant the action belongs to. */
  tenant: string;
  /** Unix seconds when this attempt was sent. */
  timestamp: number;
  /** `v1,` + base64 HMAC-SHA256 keyed with the signing API key's secret. */
  signature: string;
}

/**
 * `v1,` + base64 of HMAC-SHA256 over `id + "." + timestamp + "." + body`, the Standard Webhooks
 * signature: `key` is the raw key (an API key's secret as UTF-8 bytes, or a subscription's
 * decoded `whsec_` secret), `timestamp` Unix seconds.
 */
export function standardWebhookSignature(key: Uint8Array | string, id: string, timestamp: number | string, body: string): string {
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The `signature` of a `MESSAGE`: over `idempotencyKey.timestamp.JSON.stringify(payload)`, keyed with the API key's secret (UTF-8). */
export function messageSignature(secret: string, idempotencyKey: string, timestamp: number, payload: unknown): string {
  return standardWebhookSignature(Buffer.from(secret, 'utf8'), idempotencyKey, timestamp, JSON.stringify(payload));
}
