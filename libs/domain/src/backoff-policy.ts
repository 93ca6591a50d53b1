/**
 * How long to wait before retrying a failed attempt. Either exponential with
 * jitter (`delay = min(base × 2^(retry−1), max)`, then jittered) or an explicit
 * list of delays, the last one repeated when retries outnumber it.
 */
export type BackoffPolicy =
  | { readonly kind: 'exponential'; readonly baseMs: number; readonly maxMs: number }
  | { readonly kind: 'fixed-list'; readonly delaysMs: readonly number[] };
