import { InvalidRequestError } from './action.errors';

export interface ListPosition {
  executionTime: Date;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Opaque keyset cursor: the (executionTime, id) of the last item of a page. */
export function encodeCursor(position: ListPosition): string {
  return Buffer.from(JSON.stringify([position.executionTime.toISOString(), position.id])).toString('base64url');
}

export function decodeCursor(cursor: string): ListPosition {
  try {
    const [time, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, string];
    const executionTime = new Date(time);
    if (typeof id === 'string' && UUID.test(id) && !Number.isNaN(executionTime.getTime())) return { executionTime, id };
  } catch {
    // fall through to the error below
  }
  throw new InvalidRequestError('cursor is not valid: pass the nextCursor of the previous page unchanged');
}
