/**
 * Wall-clock time in an IANA zone, from the runtime's own zone data (ICU), so no data file goes
 * stale in the repository. A wall time is represented as a Date whose UTC fields are the local
 * fields ("naive" time), which makes calendar arithmetic on it plain UTC arithmetic.
 */
import { LRUCache } from 'lru-cache';

/** Keyed by the name in lower case: zone names are case-insensitive, so spellings of one zone share one formatter. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  const key = zone.toLowerCase();
  let formatter = formatters.get(key);
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
    formatters.set(key, formatter);
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

/** `M/D/Y, hh:mm:ss`, as en-US writes it; read from the plain string, a fraction of what formatToParts costs. */
const FORMATTED = /^(\d+)\/(\d+)\/(\d+), (\d+):(\d+):(\d+)$/;

/** The local wall-clock time of `instant` in `zone`, as a naive Date. */
export function wallTime(instant: Date, zone: string): Date {
  const [, month, day, year, hour, minute, second] = FORMATTED.exec(formatterFor(zone).format(instant))!;
  return new Date(Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second), instant.getUTCMilliseconds()));
}

/** The zone's offset from UTC at `instant`, in ms (local − UTC), as the runtime's zone data gives it. */
function offsetReadAt(instant: number, zone: string): number {
  return wallTime(new Date(instant), zone).getTime() - instant;
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/**
 * Offsets known to hold over a whole hour (by zone and hour since the epoch), or null where the
 * clocks change within it. The schedules of a batch, created at one time, read the same few
 * hours of one zone over and over; each read formats a time through Intl.
 */
const offsetsByHour = new LRUCache<string, { offset: number | null }>({ max: 10_000 });

/**
 * The zone's offset at `instant`. An hour that begins and ends on one offset keeps it throughout,
 * since clocks change at most once in two days (see OffsetStretch).
 */
function offsetAt(instant: number, zone: string): number {
  const hourStart = Math.floor(instant / HOUR_MS) * HOUR_MS;
  const key = `${hourStart}/${zone.toLowerCase()}`;
  let hour = offsetsByHour.get(key);
  if (!hour) {
    const offset = offsetReadAt(hourStart, zone);
    hour = { offset: offsetReadAt(hourStart + HOUR_MS - 1, zone) === offset ? offset : null };
    offsetsByHour.set(key, hour);
  }
  return hour.offset ?? offsetReadAt(instant, zone);
}

/** Whether `zone` shows the same wall time at both instants: the two passes of a time the clocks went back over, or one instant. */
export function showSameWallTime(a: Date, b: Date, zone: string): boolean {
  return a.getTime() + offsetAt(a.getTime(), zone) === b.getTime() + offsetAt(b.getTime(), zone);
}

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

/**
 * Binary search for the offset change between `before` (still the old offset) and `after` (the
 * new one), to the millisecond, or to the `unit` both are whole multiples of (clocks change on
 * whole seconds).
 */
function firstOffsetChange(before: number, after: number, zone: string, unit = 1): number {
  // Read directly: each probe falls in an hour of its own, which the hourly offsets would read twice.
  const oldOffset = offsetReadAt(before, zone);
  let low = before;
  let high = after;
  while (high - low > unit) {
    const middle = low + Math.floor((high - low) / 2 / unit) * unit;
    if (offsetReadAt(middle, zone) === oldOffset) low = middle;
    else high = middle;
  }
  return high;
}

/** A change of a zone's clocks, as a wall-clock schedule meets it. */
export interface ClockChange {
  /** The local time of day (ms after midnight, on the old offset) at which the clocks change. */
  readonly at: number;
  /** New offset − old offset, in ms: > 0, the clocks jump over that much wall time; < 0, they go back and show it again. */
  readonly by: number;
}

/** Years of changes looked at: the rules in force now, which the zone data repeats for every later year. */
const CHANGE_YEARS = 2;
/** Samples two weeks apart: a change and its reverse are always further apart than that. */
const SAMPLE_STEP_MS = 14 * DAY_MS;
const clockChangesByZone = new Map<string, readonly ClockChange[]>();

/**
 * The distinct changes of `zone`'s clocks from the start of this year over the next few, each
 * found once per zone (a few hundred offset reads) and remembered: none for a zone without
 * daylight saving.
 */
export function clockChanges(zone: string): readonly ClockChange[] {
  const key = zone.toLowerCase();
  let changes = clockChangesByZone.get(key);
  if (!changes) {
    changes = scanClockChanges(zone, Date.UTC(new Date().getUTCFullYear(), 0, 1));
    clockChangesByZone.set(key, changes);
  }
  return changes;
}

function scanClockChanges(zone: string, from: number): ClockChange[] {
  const found = new Map<string, ClockChange>();
  const until = from + CHANGE_YEARS * 366 * DAY_MS;
  let offset = offsetReadAt(from, zone);
  for (let sample = from; sample < until; sample += SAMPLE_STEP_MS) {
    const next = offsetReadAt(sample + SAMPLE_STEP_MS, zone);
    if (next === offset) continue;
    const instant = firstOffsetChange(sample, sample + SAMPLE_STEP_MS, zone, 1000);
    const at = (((instant + offset) % DAY_MS) + DAY_MS) % DAY_MS;
    found.set(`${at}:${next - offset}`, { at, by: next - offset });
    offset = next;
  }
  return [...found.values()];
}
