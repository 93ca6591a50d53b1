/**
 * Wall-clock time in an IANA zone, from the runtime's own zone data (ICU), so no data file goes
 * stale in the repository. A wall time is represented as a Date whose UTC fields are the local
 * fields ("naive" time), which makes calendar arithmetic on it plain UTC arithmetic.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** Whether the runtime knows this IANA zone name. */
export function isKnownTimeZone(zone: string): boolean {
  try {
    formatterFor(zone);
    return true;
  } catch {
    return false;
  }
}

/** The local wall-clock time of `instant` in `zone`, as a naive Date. */
export function wallTime(instant: Date, zone: string): Date {
  const fields: Record<string, number> = {};
  for (const part of formatterFor(zone).formatToParts(instant)) if (part.type !== 'literal') fields[part.type] = Number(part.value);
  return new Date(Date.UTC(fields.year, fields.month - 1, fields.day, fields.hour, fields.minute, fields.second, instant.getUTCMilliseconds()));
}

/** The zone's offset from UTC at `instant`, in ms (local − UTC). */
function offsetAt(instant: number, zone: string): number {
  return wallTime(new Date(instant), zone).getTime() - instant;
}

/**
 * The instant at which `zone` shows the wall time `wall`. A wall time that happens twice (the
 * clocks went back) resolves to its first instant; one that does not exist (the clocks jumped
 * forward over it) resolves to the first instant after the gap.
 */
export function instantAt(wall: Date, zone: string): Date {
  const naive = wall.getTime();
  // Offsets around the wall time bound every instant that could show it (DST shifts are under a day).
  const earlier = offsetAt(naive - 86_400_000, zone);
  const later = offsetAt(naive + 86_400_000, zone);
  const candidates = [naive - Math.max(earlier, later), naive - Math.min(earlier, later)].filter((t) => offsetAt(t, zone) === naive - t);
  if (candidates.length > 0) return new Date(Math.min(...candidates));
  return new Date(firstInstantAfterGap(naive - Math.max(earlier, later), naive - Math.min(earlier, later), zone));
}

/** Binary search for the transition between `before` (still the old offset) and `after` (the new one), to the millisecond. */
function firstInstantAfterGap(before: number, after: number, zone: string): number {
  const oldOffset = offsetAt(before, zone);
  let low = before;
  let high = after;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (offsetAt(middle, zone) === oldOffset) low = middle;
    else high = middle;
  }
  return high;
}
