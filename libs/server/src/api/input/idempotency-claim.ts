import { InvalidRequestError } from '../errors/action.errors';
import { IdempotencyClaim } from '../actions/action-commands.service';
import { requestHash } from './request-hash';

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * The `Idempotency-Key` of a create with the hash of its body as parsed, or undefined without a
 * key. The body as parsed, not the DTO: a repeat must mean the same JSON, not merely validate the same.
 */
export function idempotencyClaim(key: string | undefined, parsedBody: unknown): IdempotencyClaim | undefined {
  if (key === undefined) return undefined;
  if (!IDEMPOTENCY_KEY.test(key)) throw new InvalidRequestError('Idempotency-Key must be 1 to 255 visible ASCII characters');
  return { key, requestHash: requestHash(parsedBody) };
}
