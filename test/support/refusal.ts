import { PunctualError } from '@punctual/client';

/** The error a client call fails with; fails the test when the call succeeds. */
export async function refusal(promise: Promise<unknown>): Promise<PunctualError> {
  const outcome = await promise.then(
    (value) => new Error(`expected a refusal, got ${JSON.stringify(value)}`),
    (error: unknown) => error,
  );
  if (outcome instanceof PunctualError) return outcome;
  throw outcome;
}
