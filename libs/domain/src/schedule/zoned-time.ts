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

const DAY_MS = 86_400_000;

/**
 * The instant at which `zone` shows the wall time `wall`. A wall time that happens twice (the
 * clocks went back) resolves to its first instant; one that does not exist (the clocks jumped
 * forward over it) resolves to the first instant after the gap.
 */
export function instantAt(wall: Date, zone: string): Date {
  const naive = wall.getTime();
  // Offsets around the wall time bound every instant that could show it (DST shifts are under a day).
  const earlier = offsetAt(naive - DAY_MS, zone);
  const later = offsetAt(naive + DAY_MS, zone);
  const candidates = [naive - Math.max(earlier, later), naive - Math.min(earlier, later)].filter((t) => offsetAt(t, zone) === naive - t);
  if (candidates.length > 0) return new Date(Math.min(...candidates));
  return new Date(firstOffsetChange(naive - Math.max(earlier, later), naive - Math.min(earlier, later), zone));
}

/**
 * Instants (ms) over which a zone keeps one UTC offset: within one, wall-time order is instant
 * order. Zones change offset at most once in two days; with no change within two days a stretch is
 * cut at one, so a cut is never within a day of a change and a repeated wall time never straddles it.
 */
export interface OffsetStretch {
  /** The first instant. */
  readonly start: number;
  /** The instant after the last: an offset change, or a cut. */
  readonly end: number;
  /** local − UTC, in ms, over the stretch. */
  readonly offset: number;
  /** Just before `start` and from `end` on: another offset where the clocks change there. */
  readonly offsetBefore: number;
  readonly offsetAfter: number;
}

/** The stretch of one offset from `start` on. */
export function offsetStretchFrom(start: number, zone: string): OffsetStretch {
  const offset = offsetAt(start, zone);
  const later = offsetAt(start + 2 * DAY_MS, zone);
  const end = later === offset ? start + DAY_MS : firstOffsetChange(start, start + 2 * DAY_MS, zone);
  return { start, end, offset, offsetBefore: offsetAt(start - 1, zone), offsetAfter: later };
}

/** The stretch of one offset ending just before `end`. */
export function offsetStretchUntil(end: number, zone: string): OffsetStretch {
  const offset = offsetAt(end - 1, zone);
  const earlier = offsetAt(end - 1 - 2 * DAY_MS, zone);
  const start = earlier === offset ? end - DAY_MS : firstOffsetChange(end - 1 - 2 * DAY_MS, end - 1, zone);
  return { start, end, offset, offsetBefore: earlier, offsetAfter: offsetAt(end, zone) };
}

/** Binary search for the offset change between `before` (still the old offset) and `after` (the new one), to the millisecond. */
function firstOffsetChange(before: number, after: number, zone: string): number {
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
