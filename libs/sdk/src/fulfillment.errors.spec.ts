import { MAX_RETRY_LATER_MS, PermanentFulfillmentError, RetryLaterError } from './fulfillment.errors';

describe('RetryLaterError', () => {
  it('carries the delay asked for, in whole ms, and says it in its message', () => {
    const error = new RetryLaterError(1500.2, 'HTTP 429 from sms.example.com');
    expect(error.delayMs).toBe(1501);
    expect(error.message).toBe('HTTP 429 from sms.example.com; retry asked in 1501 ms');
    expect(error.name).toBe('RetryLaterError');
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(PermanentFulfillmentError);
  });

  it('takes 0 ms, and cuts a delay over a day to a day', () => {
    expect(new RetryLaterError(0).delayMs).toBe(0);
    expect(new RetryLaterError(MAX_RETRY_LATER_MS * 3).delayMs).toBe(MAX_RETRY_LATER_MS);
    expect(new RetryLaterError(Number.MAX_VALUE).delayMs).toBe(MAX_RETRY_LATER_MS);
    expect(MAX_RETRY_LATER_MS).toBe(86_400_000);
  });

  it('cuts an infinite delay to a day too', () => {
    expect(new RetryLaterError(Number.POSITIVE_INFINITY).delayMs).toBe(MAX_RETRY_LATER_MS);
  });

  it.each([-1, Number.NaN, Number.NEGATIVE_INFINITY, '100' as unknown as number])('refuses a delay of %p', (delayMs) => {
    expect(() => new RetryLaterError(delayMs)).toThrow(RangeError);
  });
});
