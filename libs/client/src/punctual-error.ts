import { ErrorBody } from '@punctual/contract';

/** Punctual refused a request: `statusCode` is the HTTP status (or the HTTP twin's status over RPC); nothing was changed. */
export class PunctualError extends Error {
  readonly statusCode: number;
  readonly error: string;
  /** The server's message: one string, or one per problem found in the body. */
  readonly problems: readonly string[];

  constructor(
    readonly body: ErrorBody,
    /** A quota refusal (429): the seconds after which asking again may succeed (HTTP's `Retry-After`, gRPC's `retry-after`). */
    readonly retryAfterSeconds?: number,
  ) {
    super(`${body.statusCode} ${body.error}: ${([] as string[]).concat(body.message).join('; ')}`);
    this.name = 'PunctualError';
    this.statusCode = body.statusCode;
    this.error = body.error;
    this.problems = ([] as string[]).concat(body.message);
  }
}

/**
 * No answer came within the timeout. The request may or may not have been carried out (Redis
 * pub/sub keeps nothing); retry a create with the same `Idempotency-Key` to find out safely.
 */
export class PunctualTimeoutError extends PunctualError {
  constructor(what: string, timeoutMs: number) {
    super({ statusCode: 504, error: 'Gateway Timeout', message: `No answer to ${what} within ${timeoutMs} ms; the outcome is unknown` });
    this.name = 'PunctualTimeoutError';
  }
}

/** The body as a Punctual error body, or null when it is not one. */
export function asErrorBody(value: unknown): ErrorBody | null {
  if (typeof value !== 'object' || value === null) return null;
  const { statusCode, error, message } = value as Record<string, unknown>;
  const isMessage = typeof message === 'string' || (Array.isArray(message) && message.every((m) => typeof m === 'string'));
  return typeof statusCode === 'number' && typeof error === 'string' && isMessage ? { statusCode, error, message } : null;
}
