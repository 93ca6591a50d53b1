/**
 * What the history may say about an HTTP_REQUEST call. Notes, `lastError` and webhook events are
 * read by every API client of the action and by webhook receivers, so they name the status and
 * the host (with its port) and never the path, the query, user information, a header value or a
 * signature: those often hold credentials.
 */

const EXCERPT_BYTES = 1024;
const MASK = '[redacted]';
/** Shorter values (`1`, `true`, `json`) are too common in answers to mask, and too short to be secrets. */
const MIN_MASKED_LENGTH = 6;

/** `https://user:pw@hooks.example.com:8443/p?token=…` → `hooks.example.com:8443`. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'an invalid URL';
  }
}

/**
 * The first 1 KiB of an answer, with every value of the call that the receiver echoed back (the
 * URL or its path and query, a query value, a header value) replaced by `[redacted]`.
 */
export function bodyExcerpt(body: Buffer, url: string, headerValues: readonly string[]): string {
  return redactedExcerpt(body.toString('utf8'), callValues(url, headerValues));
}

/** The first 1 KiB of `text`, with each of `values` long enough to be a secret replaced by `[redacted]`. */
export function redactedExcerpt(text: string, values: readonly string[]): string {
  let masked = text;
  const secrets = [...new Set(values)].filter((value) => value.length >= MIN_MASKED_LENGTH).sort((a, b) => b.length - a.length);
  for (const value of secrets) masked = masked.split(value).join(MASK);
  return Buffer.from(masked, 'utf8').subarray(0, EXCERPT_BYTES).toString('utf8');
}

/** Every value of the call a receiver may echo back; `redactedExcerpt` masks the longest first, so that a URL is masked whole before its parts. */
function callValues(text: string, headerValues: readonly string[]): string[] {
  const values = [...headerValues];
  try {
    const url = new URL(text);
    const rawQueryValues = url.search
      .slice(1)
      .split('&')
      .map((pair) => pair.slice(pair.indexOf('=') + 1));
    values.push(text, url.href, url.href.replace(/#.*$/, ''), url.pathname + url.search, url.pathname, url.search);
    const [user, password] = [decodeOrSame(url.username), decodeOrSame(url.password)];
    // Node sends user information as `Authorization: Basic base64(user:password)`.
    values.push(url.username, url.password, user, password, Buffer.from(`${user}:${password}`).toString('base64'));
    values.push(...rawQueryValues, ...[...url.searchParams.values()]);
  } catch {
    values.push(text);
  }
  return values;
}

function decodeOrSame(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
