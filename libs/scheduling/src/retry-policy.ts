import { BackoffPolicy, PunctualConfig } from '@app/config';
import { FulfillmentOptions } from '@app/fulfillment';

/** The retry settings in force for one action type. */
export interface RetryPolicy {
  readonly maxRetries: number;
  readonly backoff: BackoffPolicy;
}

/** The global settings, overridden by what a type's `@Fulfillment(…, options)` says. */
export function retryPolicyFor(options: FulfillmentOptions, config: PunctualConfig): RetryPolicy {
  return {
    maxRetries: options.maxRetries ?? config.scheduling.maxRetries,
    backoff: options.backoffDelaysMs ? { kind: 'fixed-list', delaysMs: options.backoffDelaysMs } : config.scheduling.backoff,
  };
}
