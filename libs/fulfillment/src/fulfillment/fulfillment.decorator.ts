import { Injectable, SetMetadata, applyDecorators } from '@nestjs/common';
import { ActionTypeDefinition } from '../registry/action-type-definition';

export const FULFILLMENT_METADATA = 'punctual:fulfillment';

/** How the worker runs one action type; every field falls back to the global configuration. */
export interface FulfillmentOptions {
  /** Attempts after the first before the action is FAILED; defaults to `MAX_RETRIES`. */
  readonly maxRetries?: number;
  /** Explicit backoff delays in ms (the last one repeats); defaults to the global policy. */
  readonly backoffDelaysMs?: readonly number[];
  /** At most `max` runs per `durationMs` across all workers, to protect a downstream service. */
  readonly rateLimit?: { readonly max: number; readonly durationMs: number };
}

export interface FulfillmentMetadata {
  readonly definition: ActionTypeDefinition;
  readonly options: FulfillmentOptions;
}

/**
 * Marks a provider as the fulfillment of one action type. The worker discovers it at boot;
 * nothing in scheduling code names the type.
 *
 * @example
 * ＠Fulfillment(HTTP_REQUEST, { maxRetries: 8 })
 * export class HttpRequestFulfillment implements ActionFulfillment<HttpRequestData> { … }
 */
export function Fulfillment(definition: ActionTypeDefinition, options: FulfillmentOptions = {}): ClassDecorator {
  const metadata: FulfillmentMetadata = { definition, options };
  return applyDecorators(Injectable(), SetMetadata(FULFILLMENT_METADATA, metadata));
}
