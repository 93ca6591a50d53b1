import { validateHeaderName, validateHeaderValue } from 'node:http';
import { ValidateBy } from 'class-validator';

/** Headers every HTTP_REQUEST call gets from Punctual (the signature covers them) or that frame the body. */
export const HEADERS_SET_BY_PUNCTUAL = ['idempotency-key', 'webhook-id', 'webhook-timestamp', 'webhook-signature', 'content-length', 'transfer-encoding'];

/** The first header Node could not send as given, or that Punctual sets itself, as a message naming it. */
export function headerProblem(headers: object): string | null {
  for (const [name, value] of Object.entries(headers)) {
    try {
      validateHeaderName(name);
    } catch {
      return `headers["${name}"] is not a valid header name`;
    }
    if (HEADERS_SET_BY_PUNCTUAL.includes(name.toLowerCase())) return `headers["${name}"] is set by Punctual on every call`;
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
