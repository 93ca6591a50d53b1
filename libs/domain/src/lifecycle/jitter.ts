import { ActionState } from './action-state';

/** The largest jitter an action may ask for: an hour. */
export const MAX_JITTER_MS = 3_600_000;

/**
 * The delay of occurrence `occurrence` after its scheduled time: in [0, jitterMs], fixed for that
 * occurrence by the action's seed, so that a preview, `nextAttemptAt` and every read agree, and
 * many actions scheduled for one instant spread over the window instead of arriving at once.
 */
export function jitterOf(state: Pick<ActionState, 'jitterMs' | 'jitterSeed'>, occurrence: number): number {
  if (!state.jitterMs) return 0;
  return mix(state.jitterSeed, occurrence) % (state.jitterMs + 1);
}

/** When occurrence `occurrence`, scheduled at `time`, is due: its time plus its jitter. */
export function jittered(state: Pick<ActionState, 'jitterMs' | 'jitterSeed'>, time: Date, occurrence: number): Date {
  const delay = jitterOf(state, occurrence);
  return delay === 0 ? time : new Date(time.getTime() + delay);
}

/** A well-spread 32-bit value of (seed, n): the finaliser of MurmurHash3. */
function mix(seed: number, n: number): number {
  let x = (seed ^ Math.imul(n, 0x9e3779b1)) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b) >>> 0;
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}
