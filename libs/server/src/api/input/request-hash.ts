import { createHash } from 'node:crypto';
import { canonicalJson } from '@punctual/contract';

/**
 * SHA-256 of the body as parsed JSON: object keys sorted at every depth and no whitespace, so
 * two bodies that mean the same hash the same however a client serialised them.
 */
export function requestHash(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}
