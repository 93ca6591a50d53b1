import { Frequency } from '@app/database';

const FIXED_STEP_MS: Record<Exclude<Frequency, Frequency.Monthly>, number> = {
  [Frequency.TenMins]: 10 * 60_000,
  [Frequency.Hourly]: 60 * 60_000,
  [Frequency.Daily]: 24 * 60 * 60_000,
  [Frequency.Weekly]: 7 * 24 * 60 * 60_000,
};

/** `anchor` moved by whole calendar months in UTC, the day clamped to the target month's last day. */
export function addMonthsClamped(anchor: Date, months: number): Date {
  const year = anchor.getUTCFullYear();
  const month = anchor.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const result = new Date(anchor.getTime());
  result.setUTCFullYear(year, month, Math.min(anchor.getUTCDate(), lastDay));
  return result;
}

function wholeMonthsBetween(from: Date, to: Date): number {
  return (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + (to.getUTCMonth() - from.getUTCMonth());
}

/**
 * The scheduled time after `current`, one `frequency` step on. Steps are taken from the
 * scheduled time, never from when the run happened, so a schedule does not drift.
 * MONTHLY counts months from `anchor` (the time the client set) to keep its day of month.
 */
export function nextOccurrence(current: Date, frequency: Frequency, anchor: Date = current): Date {
  if (frequency === Frequency.Monthly) return addMonthsClamped(anchor, wholeMonthsBetween(anchor, current) + 1);
  return new Date(current.getTime() + FIXED_STEP_MS[frequency]);
}

/**
 * The latest scheduled time at or before `now`, stepping from `current` (which must not be
 * after `now`). Computed directly, so a long outage costs no loop over missed steps.
 */
export function latestOccurrenceNotAfter(current: Date, frequency: Frequency, now: Date, anchor: Date = current): Date {
  if (frequency === Frequency.Monthly) {
    let months = wholeMonthsBetween(anchor, now);
    while (months > 0 && addMonthsClamped(anchor, months) > now) months -= 1;
    const latest = addMonthsClamped(anchor, months);
    return latest > current ? latest : current;
  }
  const step = FIXED_STEP_MS[frequency];
  return new Date(current.getTime() + Math.floor((now.getTime() - current.getTime()) / step) * step);
}

/** The first scheduled time strictly after `now`, stepping from `current`. */
export function firstOccurrenceAfter(current: Date, frequency: Frequency, now: Date, anchor: Date = current): Date {
  if (current > now) return current;
  return nextOccurrence(latestOccurrenceNotAfter(current, frequency, now, anchor), frequency, anchor);
}
