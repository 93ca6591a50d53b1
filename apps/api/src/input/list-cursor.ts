import { InvalidRequestError } from '../errors/action.errors';
import { isStorableTime } from './api-time';

export interface ListPosition {
  executionTime: Date;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Opaque keyset cursor: the (executionTime, id) of the last item of a page. */
export function encodeCursor(position: ListPosition): string {
  return Buffer.from(JSON.stringify([position.executionTime.toISOString(), position.id])).toString('base64url');
}

/** Reads a cursor back; a forged one (any time a stored action cannot have, any id that is not a UUID) is refused. */
export function decodeCursor(cursor: string): ListPosition {
  try {
    const position: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(position) && position.length === 2 && typeof position[0] === 'string' && typeof position[1] === 'string') {
      const executionTime = new Date(position[0]);
      if (UUID.test(position[1]) && isStorableTime(executionTime)) return { executionTime, id: position[1] };
    }
  } catch {
    // fall through to the error below
  }
  throw new InvalidRequestError('cursor is not valid: pass the nextCursor of the previous page unchanged');
}
