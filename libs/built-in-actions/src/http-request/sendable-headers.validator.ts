import { validateHeaderName, validateHeaderValue } from 'node:http';
import { ValidateBy } from 'class-validator';

/** Headers every HTTP_REQUEST call gets from Punctual (the signature covers them) or that frame the body. */
const HEADERS_SET_BY_PUNCTUAL = ['idempotency-key', 'webhook-id', 'webhook-timestamp', 'webhook-signature', 'content-length', 'transfer-encoding'];

/**
 * Why an action may not set this header itself, or null. Besides Punctual's own headers, `Host`,
 * `Forwarded` and `X-Forwarded-*` would let a call pose as another site or as a proxy's client to
 * a receiver (or a proxy in front of it) that trusts them.
 */
export function reservedHeaderReason(name: string): string | null {
  const lower = name.toLowerCase();
  if (HEADERS_SET_BY_PUNCTUAL.includes(lower)) return 'is set by Punctual on every call';
  if (lower === 'host' || lower === 'forwarded' || lower.startsWith('x-forwarded-')) {
    return 'may not be set: a call cannot name another host or claim to come through a proxy';
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
