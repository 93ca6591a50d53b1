import { LoggerService } from '@nestjs/common';

/**
 * The Standard Webhooks headers that let a receiver check who sent a body, and when: `webhook-id`,
 * `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,` + base64 of HMAC-SHA256 over
 * `id.timestamp.body`).
 */
export interface SignatureHeaders {
  readonly 'webhook-id': string;
  readonly 'webhook-timestamp': string;
  readonly 'webhook-signature': string;
}

/** What a fulfillment knows about the attempt it is running. */
export interface FulfillmentContext {
  readonly actionId: string;
  /** 1-based occurrence of a (possibly recurring) action. */
  readonly occurrence: number;
  /** 1-based attempt within the occurrence. */
  readonly attempt: number;
  /**
   * `<actionId>:<occurrence>`: the same for every attempt of one occurrence. Pass it to
   * downstream systems so that a retried or re-delivered attempt is recognised there.
   */
  readonly idempotencyKey: string;
  /** The occurrence's scheduled time. */
  readonly scheduledAt: Date;
  /** The tenant the action belongs to: what the attempt reaches and signs on its behalf is that tenant's. */
  readonly tenantId: string;
  /**
   * The API key that last set the action's data (null for actions stored before keys were
   * recorded): what the attempt sends on its behalf is signed with its secret, or with the
   * tenant's oldest remaining key once it is gone (`SigningKeys`), never with another tenant's.
   */
  readonly signingKeyId: string | null;
  /**
   * Aborted when this attempt must stop: its claim could not be renewed, so another worker may
   * take the occurrence over, or its worker is stopping and SHUTDOWN_TIMEOUT_MS has passed (the
   * attempt is then recorded as failed). Pass it to every I/O call so no attempt outlives its claim
   * or keeps a stopping worker alive.
   */
  readonly signal: AbortSignal;
  /**
   * Signs `body`, exactly the string to send (`''` for none), as HTTP_REQUEST signs its calls:
   * Standard Webhooks headers with `webhook-id` the idempotency key, under the secret of the key
   * `signingKeyId` names, or the tenant's oldest remaining key, never another tenant's. Add them
   * to the request; the receiver verifies them with that key's secret. Rejects when the tenant has
   * no key left (the attempt then fails and is retried).
   */
  sign(body: string): Promise<SignatureHeaders>;
  /** The client's own metadata of the action. */
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly logger: LoggerService;
}

/** A successful fulfillment; `note` goes into the action's history (a status code, a message id…). */
export interface FulfillmentResult {
  readonly note?: string;
}

/**
 * Runs one action type. Implementations are Nest providers marked with `@Fulfillment(TYPE)`;
 * they know nothing about queues, retries or recurrence, and receive `data` as an instance of
 * the type's data class, already checked against it. Throw to fail the attempt: a
 * `PermanentFulfillmentError` is not retried, any other error is.
 */
export interface ActionFulfillment<TData extends object = object> {
  fulfill(data: TData, context: FulfillmentContext): Promise<FulfillmentResult>;
}
