/** Never retry a busy target sooner than this, nor later than the cap. */
const MIN_WAIT_MS = 20;
const MAX_WAIT_MS = 5000;

interface TargetState {
  /** Start times of the attempts running now. */
  readonly started: Set<{ at: number }>;
  lastDurationMs: number;
}

/**
 * How many attempts run at once to each receiver in this process, so that one receiver cannot take
 * every delivery slot. A job whose receiver is full waits about as long as that receiver takes:
 * its last attempt's duration, or the age of its oldest running attempt if longer; a few
 * milliseconds for a quick receiver, seconds for one that hangs.
 */
export class TargetSlots {
  private readonly targets = new Map<string, TargetState>();

  constructor(private readonly perTarget: number) {}

  /** Takes a slot and returns its release, or returns how long to wait when the target is full. */
  take(target: string, now: number): { release: (endedAt: number) => void } | { waitMs: number } {
    const state = this.targets.get(target) ?? { started: new Set(), lastDurationMs: 0 };
    if (state.started.size >= this.perTarget) {
      const oldestAgeMs = now - Math.min(...[...state.started].map((s) => s.at));
      const waitMs = Math.min(MAX_WAIT_MS, Math.max(MIN_WAIT_MS, state.lastDurationMs, oldestAgeMs));
      return { waitMs: waitMs + Math.floor(Math.random() * MIN_WAIT_MS) };
    }
    const start = { at: now };
    state.started.add(start);
    this.targets.set(target, state);
    return {
      release: (endedAt) => {
        state.started.delete(start);
        state.lastDurationMs = endedAt - start.at;
        if (state.started.size === 0) this.targets.delete(target);
      },
    };
  }
}
