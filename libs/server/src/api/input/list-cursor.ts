import { InvalidRequestError } from '../errors/action.errors';
import { isStorableTime } from './api-time';

export interface ListPosition {
  executionTime: Date;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function invalidCursor(): InvalidRequestError {
  return new InvalidRequestError('cursor is not valid: pass the nextCursor of the previous page unchanged');
}

/** Opaque keyset cursor: the sort keys of the last item of a page, in order. */
export function encodeKeys(keys: readonly string[]): string {
  return Buffer.from(JSON.stringify(keys)).toString('base64url');
}

/**
 * The sort keys a cursor holds, refused (400) unless it is `count` strings that `valid` accepts
 * (the caller's check that each could belong to a stored item), so a forged cursor never reaches a statement.
 */
export function decodeKeys(cursor: string, count: number, valid: (keys: string[]) => boolean): string[] {
  let keys: unknown;
  try {
    keys = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  const strings = Array.isArray(keys) && keys.length === count && keys.every((key) => typeof key === 'string');
  if (strings && valid(keys as string[])) return keys as string[];
  throw invalidCursor();
}

/** Opaque keyset cursor: the (executionTime, id) of the last item of a page. */
export function encodeCursor(position: ListPosition): string {
  return encodeKeys([position.executionTime.toISOString(), position.id]);
}

/** Reads a cursor back; a forged one (any time a stored action cannot have, any id that is not a UUID) is refused. */
export function decodeCursor(cursor: string): ListPosition {
  const [time, id] = decodeKeys(cursor, 2, ([time, id]) => UUID.test(id) && isStorableTime(new Date(time)));
  return { executionTime: new Date(time), id };
}
