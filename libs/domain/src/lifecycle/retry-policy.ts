import { BackoffPolicy } from '../backoff-policy';

/** How often an occurrence is retried and how long to wait between attempts. */
export interface RetryPolicy {
  /** Retries after the first attempt; an occurrence runs at most `1 + maxRetries` times. */
  readonly maxRetries: number;
  readonly backoff: BackoffPolicy;
}

/** What an action type's `@Fulfillment(…, options)` may override. */
export interface RetryOverrides {
  readonly maxRetries?: number;
  readonly backoffDelaysMs?: readonly number[];
}

/** A client's own retry policy for one action, as the API takes and returns it. */
export interface ActionRetryPolicy {
  readonly maxRetries: number;
  readonly backoff:
    | { readonly type: 'exponential'; readonly baseMs: number; readonly maxMs: number }
    | { readonly type: 'fixed'; readonly delayMs: number }
    | { readonly type: 'list'; readonly delaysMs: readonly number[] };
}

/**
 * The policy in force for one action: the action's own policy wins whole; otherwise each field
 * comes from the action type's options, else from the global configuration.
 */
export function effectiveRetryPolicy(global: RetryPolicy, type: RetryOverrides = {}, action: ActionRetryPolicy | null = null): RetryPolicy {
  if (action) return { maxRetries: action.maxRetries, backoff: backoffOf(action.backoff) };
  return {
    maxRetries: type.maxRetries ?? global.maxRetries,
    backoff: type.backoffDelaysMs ? { kind: 'fixed-list', delaysMs: type.backoffDelaysMs } : global.backoff,
  };
}

function backoffOf(backoff: ActionRetryPolicy['backoff']): BackoffPolicy {
  switch (backoff.type) {
    case 'exponential':
      return { kind: 'exponential', baseMs: backoff.baseMs, maxMs: backoff.maxMs };
    case 'fixed':
      return { kind: 'fixed-list', delaysMs: [backoff.delayMs] };
    case 'list':
      return { kind: 'fixed-list', delaysMs: backoff.delaysMs };
  }
}
