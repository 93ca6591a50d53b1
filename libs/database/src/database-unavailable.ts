/** What a client is told when Postgres is unreachable: the request can be sent again as it is. */
export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is unreachable; nothing was changed. Try again shortly.';

/** SQLSTATE classes that mean the server is gone or going, not that the statement is wrong. */
const UNAVAILABLE_SQLSTATE = /^(08|57P0[1-3])/;
const UNAVAILABLE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);
/** node-postgres reports these two without any code, so their text is all there is to go by. */
const UNAVAILABLE_POOL_MESSAGES = [/Connection terminated/i, /timeout exceeded when trying to connect/i];

interface ErrorWithCode {
  code?: unknown;
  driverError?: ErrorWithCode;
  message?: string;
}

/** Whether an error means Postgres could not be reached (as opposed to a bad query or data). */
export function isDatabaseUnavailable(error: unknown): boolean {
  const candidate = error as ErrorWithCode | undefined;
  if (!candidate || typeof candidate !== 'object') return false;
  const inner = candidate.driverError ?? candidate;
  const code = typeof inner.code === 'string' ? inner.code : '';
  if (UNAVAILABLE_SOCKET_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code)) return true;
  return UNAVAILABLE_POOL_MESSAGES.some((pattern) => pattern.test(inner.message ?? ''));
}

/** SQLSTATE 57014: the statement ran past `statement_timeout` (or was cancelled by an operator). */
export function isStatementCancelled(error: unknown): boolean {
  const candidate = error as ErrorWithCode | undefined;
  if (!candidate || typeof candidate !== 'object') return false;
  return (candidate.driverError ?? candidate).code === '57014';
}
