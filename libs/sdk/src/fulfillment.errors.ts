/** Marks a `PermanentFulfillmentError` whichever copy of the SDK made it (a registry-wide symbol, the same in every copy). */
const PERMANENT = Symbol.for('@punctual/sdk:PermanentFulfillmentError');

/** A failure that no retry can fix (bad data that slipped through, HTTP 410): the action fails at once. */
export class PermanentFulfillmentError extends Error {
  /**
   * `error instanceof PermanentFulfillmentError` holds for one made by any copy of the SDK:
   * `@punctual/server` carries its own, compiled in, and a project's fulfillments throw the one the
   * project installed. A subclass keeps the ordinary check.
   */
  static [Symbol.hasInstance](this: abstract new (...args: never[]) => unknown, value: unknown): boolean {
    if (this !== PermanentFulfillmentError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === 'object' && value !== null && (value as { [PERMANENT]?: unknown })[PERMANENT] === true;
  }

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'PermanentFulfillmentError';
  }
}

Object.defineProperty(PermanentFulfillmentError.prototype, PERMANENT, { value: true });
