import { MAX_RETRY_LATER_MS, PermanentFulfillmentError, RetryLaterError } from './fulfillment.errors';

/** The module as another copy of the SDK defines it: a fresh load of the same file. */
function anotherCopy(): typeof import('./fulfillment.errors') {
  let copy: typeof import('./fulfillment.errors') | undefined;
  jest.isolateModules(() => {
    copy = jest.requireActual<typeof import('./fulfillment.errors')>('./fulfillment.errors');
  });
  return copy!;
}

describe('PermanentFulfillmentError', () => {
  it('is recognised across copies of the SDK, as the server sees a project’s fulfillments throw it', () => {
    const Other = anotherCopy().PermanentFulfillmentError;
    expect(Other).not.toBe(PermanentFulfillmentError);

    const thrownByTheProject = new Other('no such account');
    expect(thrownByTheProject instanceof PermanentFulfillmentError).toBe(true);
    expect(new PermanentFulfillmentError('gone') instanceof Other).toBe(true);
    expect(thrownByTheProject).toBeInstanceOf(Error);
    expect(thrownByTheProject.name).toBe('PermanentFulfillmentError');
  });

  it('is not any other error, and a subclass keeps the ordinary check', () => {
    class Gone extends PermanentFulfillmentError {}
    class Invalid extends PermanentFulfillmentError {}

    expect(new Error('timeout') instanceof PermanentFulfillmentError).toBe(false);
    expect(Object.assign(new Error('x'), { name: 'PermanentFulfillmentError' }) instanceof PermanentFulfillmentError).toBe(false);
    for (const value of [null, undefined, 'PermanentFulfillmentError', { name: 'PermanentFulfillmentError' }] as unknown[]) {
      expect((value as object) instanceof PermanentFulfillmentError).toBe(false);
    }
    expect(new Gone('410') instanceof PermanentFulfillmentError).toBe(true);
    expect(new Gone('410') instanceof Gone).toBe(true);
    expect(new Gone('410') instanceof Invalid).toBe(false);
    expect(new PermanentFulfillmentError('x') instanceof Gone).toBe(false);
  });
});

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

  it('is recognised across copies of the SDK, with its delay', () => {
    const Other = anotherCopy().RetryLaterError;
    expect(Other).not.toBe(RetryLaterError);
    const thrownByTheProject = new Other(2000, 'HTTP 429');
    expect(thrownByTheProject instanceof RetryLaterError).toBe(true);
    expect(thrownByTheProject.delayMs).toBe(2000);
    expect(thrownByTheProject instanceof PermanentFulfillmentError).toBe(false);
    expect(new Error('x') instanceof RetryLaterError).toBe(false);
  });
});
