import { MAX_JITTER_MS, jitterOf, jittered } from './jitter';

describe("an occurrence's jitter", () => {
  it('is none without a jitter, or with 0', () => {
    expect(jitterOf({ jitterMs: null, jitterSeed: 5 }, 3)).toBe(0);
    expect(jitterOf({ jitterMs: 0, jitterSeed: 5 }, 3)).toBe(0);
    const time = new Date('2027-01-01T09:00:00.000Z');
    expect(jittered({ jitterMs: null, jitterSeed: 5 }, time, 3)).toBe(time);
  });

  it('is fixed per action and occurrence, within [0, jitterMs]', () => {
    for (let seed = 0; seed < 200; seed += 1) {
      for (let occurrence = 1; occurrence < 20; occurrence += 1) {
        const delay = jitterOf({ jitterMs: 1_000, jitterSeed: seed }, occurrence);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThanOrEqual(1_000);
        expect(jitterOf({ jitterMs: 1_000, jitterSeed: seed }, occurrence)).toBe(delay);
      }
    }
    expect(jitterOf({ jitterMs: MAX_JITTER_MS, jitterSeed: 2 ** 31 - 1 }, 2 ** 31 - 1)).toBeLessThanOrEqual(MAX_JITTER_MS);
  });

  it('spreads a thousand actions scheduled for one instant over the window, and one action over its occurrences', () => {
    const ofActions = Array.from({ length: 1_000 }, (_, seed) => jitterOf({ jitterMs: 60_000, jitterSeed: seed * 7919 }, 1));
    const ofOccurrences = Array.from({ length: 1_000 }, (_, occurrence) => jitterOf({ jitterMs: 60_000, jitterSeed: 42 }, occurrence + 1));
    for (const delays of [ofActions, ofOccurrences]) {
      // Ten buckets of six seconds: each should hold about a hundred; none is empty or holds half.
      const buckets = Array.from({ length: 10 }, (_, i) => delays.filter((d) => Math.floor(d / 6_000.1) === i).length);
      expect(Math.min(...buckets)).toBeGreaterThan(50);
      expect(Math.max(...buckets)).toBeLessThan(150);
    }
  });
});
