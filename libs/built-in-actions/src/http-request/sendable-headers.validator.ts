import { validateHeaderName, validateHeaderValue } from 'node:http';
import { ValidateBy } from 'class-validator';

/** Headers every HTTP_REQUEST call gets from Punctual (the signature covers them) or that frame the body. */
const HEADERS_SET_BY_PUNCTUAL = ['idempotency-key', 'webhook-id', 'webhook-timestamp', 'webhook-signature', 'content-length', 'transfer-encoding'];

/**
 * Headers that proxies and frameworks read as the client's address, the path asked for or the
 * method meant, besides `Forwarded` and `X-Forwarded-*`: a receiver that trusts them would take a
 * call for another client's, or for another route or method than the URL and method say.
 */
const PROXY_HEADERS = ['host', 'forwarded', 'x-real-ip', 'true-client-ip', 'x-client-ip', 'x-original-url', 'x-rewrite-url', 'x-http-method-override'];

/** Why an action may not set this header itself, or null; names are compared in any letter case. */
export function reservedHeaderReason(name: string): string | null {
  const lower = name.toLowerCase();
  if (HEADERS_SET_BY_PUNCTUAL.includes(lower)) return 'is set by Punctual on every call';
  if (PROXY_HEADERS.includes(lower) || lower.startsWith('x-forwarded-')) {
    return 'may not be set: a call cannot name another host, client address, path or method, or claim to come through a proxy';
  }
  return null;
}

/** The first header Node could not send as given, or that an action may not set, as a message naming it. */
export function headerProblem(headers: object): string | null {
  for (const [name, value] of Object.entries(headers)) {
    try {
      validateHeaderName(name);
    } catch {
      return `headers["${name}"] is not a valid header name`;
    }
    const reserved = reservedHeaderReason(name);
    if (reserved) return `headers["${name}"] ${reserved}`;
    if (typeof value !== 'string') continue; // reported by the string-values check
    try {
      validateHeaderValue(name, value);
    } catch {
      return `headers["${name}"] has a value with characters that cannot be sent (CR, LF, NUL, other control characters or beyond Latin-1)`;
    }
  }
  return null;
}

/** Header names must be HTTP tokens, values sendable as they are; the message names the header. */
export function IsSendableHeaders() {
  return ValidateBy({
    name: 'isSendableHeaders',
    validator: {
      validate: (value: unknown) => typeof value !== 'object' || value === null || headerProblem(value) === null,
      defaultMessage: (args) => headerProblem(args!.value as object) ?? 'headers are invalid',
    },
  });
}
