/**
 * Makes `error instanceof errorClass` hold for an error made by any copy of the SDK: `@punctual/server`
 * carries its own, compiled in, while a project's fulfillments throw the ones the project installed.
 * The mark is a registry-wide symbol, the same in every copy. A subclass keeps the ordinary check.
 */
function recognisedAcrossCopies(errorClass: abstract new (...args: never[]) => Error, mark: symbol): void {
  Object.defineProperty(errorClass.prototype, mark, { value: true });
  Object.defineProperty(errorClass, Symbol.hasInstance, {
    value(this: abstract new (...args: never[]) => unknown, value: unknown): boolean {
      if (this !== errorClass) return Function.prototype[Symbol.hasInstance].call(this, value);
      return typeof value === 'object' && value !== null && (value as { [mark: symbol]: unknown })[mark] === true;
    },
  });
}

/** A failure that no retry can fix (bad data that slipped through, HTTP 410): the action fails at once. */
export class PermanentFulfillmentError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'PermanentFulfillmentError';
  }
}
recognisedAcrossCopies(PermanentFulfillmentError, Symbol.for('@punctual/sdk:PermanentFulfillmentError'));

/** The longest delay a `RetryLaterError` may ask for: one day. A longer one is cut to it. */
export const MAX_RETRY_LATER_MS = 24 * 60 * 60 * 1000;

/**
 * A retry delay as Punctual takes it: whole ms, at most `MAX_RETRY_LATER_MS`; null for anything
 * that is not a number of 0 ms or more. The worker applies it again to what an error carries,
 * since `delayMs` can be overwritten after construction.
 */
export function boundedRetryDelay(delayMs: unknown): number | null {
  if (typeof delayMs !== 'number' || !(delayMs >= 0)) return null;
  return Math.min(Math.ceil(delayMs), MAX_RETRY_LATER_MS);
}

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
    const bounded = boundedRetryDelay(delayMs);
    if (bounded === null) throw new RangeError(`RetryLaterError needs a delay of 0 ms or more, got ${String(delayMs)}`);
    super(`${reason}; retry asked in ${bounded} ms`, options);
    this.name = 'RetryLaterError';
    this.delayMs = bounded;
  }
}
recognisedAcrossCopies(RetryLaterError, Symbol.for('@punctual/sdk:RetryLaterError'));
