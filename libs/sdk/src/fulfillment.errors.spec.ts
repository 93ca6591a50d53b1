import { PermanentFulfillmentError } from './fulfillment.errors';

/** The class as another copy of the SDK defines it: a fresh load of the same module. */
function anotherCopy(): typeof PermanentFulfillmentError {
  let copy: typeof PermanentFulfillmentError | undefined;
  jest.isolateModules(() => {
    copy = jest.requireActual<{ PermanentFulfillmentError: typeof PermanentFulfillmentError }>('./fulfillment.errors').PermanentFulfillmentError;
  });
  return copy!;
}

describe('PermanentFulfillmentError', () => {
  it('is recognised across copies of the SDK, as the server sees a project’s fulfillments throw it', () => {
    const Other = anotherCopy();
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
