import { EgressPolicy, GrpcCaller } from '@app/outbound';
import { GRPC_CHECK_TIMEOUT_MS, GrpcTargetCheck, targetCheckDeadline } from './grpc-target.check';

describe('GrpcTargetCheck', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** A target that never answers: each look-up ends when its time runs out. */
  function silentTargets() {
    const waited: number[] = [];
    const caller = {
      lookUp: ({ timeoutMs }: { timeoutMs: number }) => {
        waited.push(timeoutMs);
        return new Promise((_, reject) => setTimeout(() => reject(new Error('DEADLINE_EXCEEDED')), timeoutMs));
      },
    } as unknown as GrpcCaller;
    return { check: new GrpcTargetCheck(new EgressPolicy(), caller), waited };
  }

  it('waits for the targets of one request once in all: a batch of silent targets costs one timeout, not one each', async () => {
    const { check, waited } = silentTargets();
    const deadline = targetCheckDeadline();
    let settled = false;
    const batch = (async () => {
      // Distinct targets, so that no cache of unanswering targets helps.
      for (let port = 1; port <= 5; port += 1) {
        await check.assertCallable('GRPC', { target: `silent.example.com:${port}`, service: 'a.B', method: 'C' }, `items.${port}.data`, deadline);
      }
      settled = true;
    })();
    await jest.advanceTimersByTimeAsync(GRPC_CHECK_TIMEOUT_MS);
    expect(settled).toBe(true);
    await batch;
    expect(waited).toEqual([GRPC_CHECK_TIMEOUT_MS]);
  });

  it('gives a request of its own a full wait', async () => {
    const { check, waited } = silentTargets();
    const single = check.assertCallable('GRPC', { target: 'silent.example.com:9', service: 'a.B', method: 'C' });
    await jest.advanceTimersByTimeAsync(GRPC_CHECK_TIMEOUT_MS);
    await single;
    expect(waited).toEqual([GRPC_CHECK_TIMEOUT_MS]);
  });
});
