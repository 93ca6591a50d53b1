/** The largest value of a Postgres `integer` column (and of a signed 32-bit integer). */
export const MAX_INT32 = 2 ** 31 - 1;

/** The largest body of one request (one action, or a change); a batch may be larger. */
export const BODY_LIMIT_BYTES = 64 * 1024;
/** The largest body of a calendar: 5,000 dates, pretty-printed. */
export const CALENDAR_BODY_LIMIT_BYTES = 256 * 1024;
/** The largest body of a batch create. */
export const BATCH_BODY_LIMIT_BYTES = 1024 * 1024;

/** The 413 message, the same whichever transport carried the body. */
export function bodyTooLargeMessage(limitBytes: number): string {
  return `Request body exceeds the limit of ${limitBytes} bytes (64 KiB per action, 256 KiB per calendar, 1 MiB per batch)`;
}
