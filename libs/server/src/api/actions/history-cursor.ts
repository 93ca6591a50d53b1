import { InvalidRequestError } from '../errors/action.errors';

/** A history entry id: a positive Postgres bigint. */
const ENTRY_ID = /^[1-9][0-9]{0,18}$/;
const MAX_BIGINT = 2n ** 63n - 1n;

/** Opaque keyset cursor of a history page: the id of the last entry it holds. */
export function encodeHistoryCursor(lastEntryId: string): string {
  return Buffer.from(JSON.stringify([lastEntryId])).toString('base64url');
}

/** Reads a cursor back; anything but the id of an entry that could exist is refused. */
export function decodeHistoryCursor(cursor: string): string {
  try {
    const position: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(position) && position.length === 1 && typeof position[0] === 'string') {
      const id = position[0];
      if (ENTRY_ID.test(id) && BigInt(id) <= MAX_BIGINT) return id;
    }
  } catch {
    // fall through to the error below
  }
  throw new InvalidRequestError('cursor is not valid: follow the Link header of the previous page unchanged');
}
