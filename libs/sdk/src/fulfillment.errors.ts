/** A failure that no retry can fix (bad data that slipped through, HTTP 410): the action fails at once. */
export class PermanentFulfillmentError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'PermanentFulfillmentError';
  }
}

/** The longest delay a `RetryLaterError` may ask for: one day. A longer one is cut to it. */
export const MAX_RETRY_LATER_MS = 24 * 60 * 60 * 1000;

/**
 * A failure to retry after a delay of the fulfillment's choosing (a downstream service answered
 * 429 or 503 with `Retry-After`), in place of the retry policy's backoff. The attempt is recorded
 * as failed with this error's message, and the next attempt is due `delayMs` from then; the
 * policy still decides whether one is left: after the last allowed attempt the action is FAILED.
 *
 * @param delayMs at least 0; rounded up to a whole ms, and cut to `MAX_RETRY_LATER_MS`. A negative
 * or non-finite delay throws a `RangeError`.
 * @param reason what failed, for the history (`rate limited by sms.example.com`).
 */
export class RetryLaterError extends Error {
  /** The delay before the next attempt, in whole ms, at most `MAX_RETRY_LATER_MS`. */
  readonly delayMs: number;

  constructor(delayMs: number, reason = 'not done yet', options?: ErrorOptions) {
    if (typeof delayMs !== 'number' || !(delayMs >= 0)) throw new RangeError(`RetryLaterError needs a delay of 0 ms or more, got ${String(delayMs)}`);
    const bounded = Math.min(Math.ceil(delayMs), MAX_RETRY_LATER_MS);
    super(`${reason}; retry asked in ${bounded} ms`, options);
    this.name = 'RetryLaterError';
    this.delayMs = bounded;
  }
}
