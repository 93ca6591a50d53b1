import { Transform } from 'class-transformer';
import { originalOf } from '@app/action-types';

/**
 * Keeps a client's free-form JSON (`data`, `metadata`) exactly as parsed. The validation pipe
 * deletes `constructor` and `prototype` keys, and class-transformer rebuilds plain objects
 * without every key that names an `Object.prototype` member (`toString`, `valueOf`, …), which
 * would alter what is stored and what an HTTP_REQUEST sends. Custom transforms run last and
 * receive the object the property came from: a `transformSafeCopy` (see `ApiValidationPipe`),
 * whose original holds the value as sent. Every free-form JSON field of a DTO needs this.
 */
export function AsSent(): PropertyDecorator {
  return Transform(({ obj, key }) => originalOf(obj as Record<string, unknown>)[key], { toClassOnly: true });
}
