import { Schedule, latestOccurrenceNotAfter } from '../schedule/schedule';

/**
 * How `RUN_ALL` catches up on missed occurrences, so that an outage, a long pause or a create dated
 * in the past never turns into a burst: catch-ups are due at least `intervalMs` apart
 * (MIN_REPEAT_INTERVAL_MS), and only the latest `max` missed occurrences run (MAX_CATCH_UP).
 */
export interface CatchUpPolicy {
  readonly intervalMs: number;
  readonly max: number;
}

/**
 * The first missed occurrence a catch-up runs, of those from `first` to `until` (both included):
 * `first` when no more than `max` were missed, else the `max`-th latest (the ones before it are
 * skipped). It walks back from `until`, at most `max` steps, so an outage of any length costs the same.
 */
export function firstCaughtUp(schedule: Schedule, first: Date, until: Date, max: number): Date {
  if (until <= first) return first;
  let time = latestOccurrenceNotAfter(schedule, first, until);
  for (let kept = 1; kept < max && time > first; kept += 1) {
    time = latestOccurrenceNotAfter(schedule, first, new Date(time.getTime() - 1));
  }
  return time;
}

/** The earliest a catch-up decided at `now` may start: the policy's interval later, so catch-ups start at least that far apart. */
export function nextCatchUpAt(now: Date, policy: CatchUpPolicy): Date {
  return new Date(now.getTime() + policy.intervalMs);
}
