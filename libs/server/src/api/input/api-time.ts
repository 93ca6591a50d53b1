/** Times Punctual accepts, so that every one fits Postgres and renders as a 4-digit-year ISO string. */
export const MIN_TIME = Date.UTC(1970, 0, 1);
export const MAX_TIME = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
export const TIME_RANGE_TEXT = 'between 1970-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z';

/**
 * Epoch milliseconds below this (1973-03-03T09:46:40.000Z) are refused: they are seconds where
 * milliseconds were meant far more often than a time in 1970–1973 (1795731607 would be 1970-01-21).
 */
export const MIN_EPOCH_MS = 100_000_000_000;

/** A number too small to be the epoch milliseconds of a time Punctual would be asked for: most likely seconds. */
export function looksLikeSeconds(value: unknown): value is number {
  return typeof value === 'number' && value < MIN_EPOCH_MS;
}

/** ISO-8601 date-time with an explicit zone (`Z` or `±hh:mm`); a zone-less time would be ambiguous. */
const ISO_WITH_ZONE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):?(\d{2}))$/i;

export function isStorableTime(date: Date): boolean {
  const time = date.getTime();
  return time >= MIN_TIME && time <= MAX_TIME;
}

/**
 * A time given as epoch milliseconds (from MIN_EPOCH_MS) or as an ISO-8601 string with a zone,
 * within the accepted range; null for anything else. Calendar fields are checked as written: JavaScript would
 * silently turn `2025-02-30` into March 2nd.
 */
export function parseApiTime(value: unknown): Date | null {
  let date: Date | null = null;
  if (typeof value === 'number' && Number.isFinite(value) && !looksLikeSeconds(value)) date = new Date(value);
  if (typeof value === 'string') {
    const fields = ISO_WITH_ZONE.exec(value);
    if (fields && fieldsExist(fields.slice(1).map((f) => (f === undefined ? 0 : Number(f))))) date = new Date(value);
  }
  return date && isStorableTime(date) ? date : null;
}

function fieldsExist([year, month, day, hour, minute, second, offsetHours, offsetMinutes]: number[]): boolean {
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return (
    month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth && hour <= 23 && minute <= 59 && second <= 59 && offsetHours <= 23 && offsetMinutes <= 59
  );
}
