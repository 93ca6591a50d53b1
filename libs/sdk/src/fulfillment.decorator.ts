import { Injectable, SetMetadata, applyDecorators } from '@nestjs/common';
import { ActionTypeDefinition } from './action-type';
import { ActionFulfillment } from './fulfillment.interface';

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

/** A class whose instances fulfill actions with data of type `TData`. */
type FulfillmentClass<TData extends object> = abstract new (...args: never[]) => ActionFulfillment<TData>;

/** The parameters of a fulfillment class's `fulfill`. */
type FulfillParameters<C extends FulfillmentClass<object>> = Parameters<InstanceType<C>['fulfill']>;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * Refuses, at compile time, a fulfillment whose `fulfill` takes other data than its action type's
 * schema (one that takes no parameters ignores the data). Methods alone would be compared
 * bivariantly, so the data types are compared both ways: a wider or narrower type fails too.
 */
type MatchingData<C extends FulfillmentClass<object>, TData extends object> =
  FulfillParameters<C> extends []
    ? unknown
    : Same<FulfillParameters<C>[0], TData> extends true
      ? unknown
      : { readonly 'fulfill must take the data class of its action type': TData };

/**
 * Marks a provider as the fulfillment of one action type. The worker discovers it at boot, checks
 * each action's `data` against the type's schema and hands `fulfill` an instance of that schema's
 * class; nothing in scheduling code names the type.
 *
 * @example
 * ＠Fulfillment(HTTP_REQUEST, { maxRetries: 8 })
 * export class HttpRequestFulfillment implements ActionFulfillment<HttpRequestData> { … }
 */
export function Fulfillment<TData extends object>(definition: ActionTypeDefinition<TData>, options: FulfillmentOptions = {}) {
  const metadata: FulfillmentMetadata = { definition, options };
  const decorate = applyDecorators(Injectable(), SetMetadata(FULFILLMENT_METADATA, metadata));
  return <C extends FulfillmentClass<TData>>(target: C & MatchingData<C, TData>): void => decorate(target);
}
