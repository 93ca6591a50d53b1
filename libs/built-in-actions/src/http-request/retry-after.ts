/** The answers whose `Retry-After` says when to try again (RFC 9110 §10.2.3): Too Many Requests, Service Unavailable. */
export const RETRY_AFTER_STATUSES = new Set([429, 503]);

/**
 * The delay a `Retry-After` value asks for, in ms: whole seconds (`120`), or an HTTP date (0 when
 * it has passed). Null when there is none or it is neither, so that the backoff applies.
 */
export function retryAfterOf(value: string | undefined, now: Date): number | null {
  const text = value?.trim() ?? '';
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // IMF-fixdate and the obsolete formats all name a weekday and a month, in letters.
  const date = /[a-z]{3}/i.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(date) ? null : Math.max(0, date - now.getTime());
}
