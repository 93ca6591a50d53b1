import { nextRetryDelay } from './next-retry-delay';

describe('nextRetryDelay', () => {
  const exponential = { kind: 'exponential', baseMs: 1000, maxMs: 10_000 } as const;

  it('doubles from the base and caps at the maximum (jitter at its top)', () => {
    expect([1, 2, 3, 4, 5, 6].map((retry) => nextRetryDelay(exponential, retry, () => 1))).toEqual([1000, 2000, 4000, 8000, 10_000, 10_000]);
  });

  it('jitters between half and all of the exponential delay', () => {
    expect(nextRetryDelay(exponential, 3, () => 0)).toBe(2000);
    expect(nextRetryDelay(exponential, 3, () => 0.5)).toBe(3000);
  });

  it('walks an explicit list and repeats its last delay', () => {
    const list = { kind: 'fixed-list', delaysMs: [60_000, 300_000, 1_200_000] } as const;
    expect([1, 2, 3, 4, 9].map((retry) => nextRetryDelay(list, retry))).toEqual([60_000, 300_000, 1_200_000, 1_200_000, 1_200_000]);
  });

  it('refuses retry numbers below 1', () => {
    expect(() => nextRetryDelay(exponential, 0)).toThrow(RangeError);
  });
});
