import { BackoffPolicy } from './backoff-policy';

/**
 * Delay before retry number `retry` (1 = the first retry after the first failure).
 * Exponential: `min(base × 2^(retry−1), max)` with "equal jitter" (between half and
 * all of it), so retries of many actions that failed together spread out.
 * Fixed list: the delay at that position, the last one repeated.
 */
export function nextRetryDelay(policy: BackoffPolicy, retry: number, random: () => number = Math.random): number {
  if (retry < 1) throw new RangeError(`retry must be ≥ 1, got ${retry}`);
  if (policy.kind === 'fixed-list') return policy.delaysMs[Math.min(retry, policy.delaysMs.length) - 1];
  const ceiling = Math.min(policy.baseMs * 2 ** (retry - 1), policy.maxMs);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
