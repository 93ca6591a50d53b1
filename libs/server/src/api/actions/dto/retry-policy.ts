import { ApiPropertyOptional } from '@nestjs/swagger';
import { ValidateBy } from 'class-validator';

const MIN_DELAY_MS = 100;
const MAX_DELAY_MS = 7 * 86_400_000;
const MAX_RETRIES = 25;
const MAX_LIST = 25;

const isDelay = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= MIN_DELAY_MS && (value as number) <= MAX_DELAY_MS;
const DELAY_TEXT = `an integer of ms from ${MIN_DELAY_MS} to ${MAX_DELAY_MS} (7 days)`;

/** Why `value` is not a retry policy an action can carry, naming the field; null when it is one. */
export function retryPolicyProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'retryPolicy must be an object { maxRetries, backoff }';
  const { maxRetries, backoff, ...rest } = value as Record<string, unknown>;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined) return `retryPolicy.${extra} should not exist`;
  if (!Number.isInteger(maxRetries) || (maxRetries as number) < 0 || (maxRetries as number) > MAX_RETRIES)
    return `retryPolicy.maxRetries must be an integer from 0 to ${MAX_RETRIES}`;
  if (typeof backoff !== 'object' || backoff === null || Array.isArray(backoff))
    return 'retryPolicy.backoff must be an object with a type: exponential, fixed or list';
  const b = backoff as Record<string, unknown>;
  const only = (...keys: string[]) => Object.keys(b).find((key) => !['type', ...keys].includes(key));
  switch (b.type) {
    case 'exponential':
      if (only('baseMs', 'maxMs')) return `retryPolicy.backoff.${only('baseMs', 'maxMs')} should not exist`;
      if (!isDelay(b.baseMs)) return `retryPolicy.backoff.baseMs must be ${DELAY_TEXT}`;
      if (!isDelay(b.maxMs)) return `retryPolicy.backoff.maxMs must be ${DELAY_TEXT}`;
      return b.baseMs > b.maxMs ? 'retryPolicy.backoff.baseMs must not exceed maxMs' : null;
    case 'fixed':
      if (only('delayMs')) return `retryPolicy.backoff.${only('delayMs')} should not exist`;
      return isDelay(b.delayMs) ? null : `retryPolicy.backoff.delayMs must be ${DELAY_TEXT}`;
    case 'list':
      if (only('delaysMs')) return `retryPolicy.backoff.${only('delaysMs')} should not exist`;
      if (!Array.isArray(b.delaysMs) || b.delaysMs.length < 1 || b.delaysMs.length > MAX_LIST)
        return `retryPolicy.backoff.delaysMs must list 1 to ${MAX_LIST} delays`;
      return b.delaysMs.every(isDelay) ? null : `retryPolicy.backoff.delaysMs must each be ${DELAY_TEXT}`;
    default:
      return 'retryPolicy.backoff.type must be exponential, fixed or list';
  }
}

/** A per-action retry policy (contract shape); it wins over the type's and the global one. */
export function IsRetryPolicy(): PropertyDecorator {
  const document = ApiPropertyOptional({
    description: `{ maxRetries: 0–${MAX_RETRIES}, backoff: { type: "exponential", baseMs, maxMs } | { type: "fixed", delayMs } | { type: "list", delaysMs: [1–${MAX_LIST}] } }; delays ${MIN_DELAY_MS} ms – 7 days, the last of a list repeats`,
    type: 'object',
    additionalProperties: true,
    example: { maxRetries: 5, backoff: { type: 'exponential', baseMs: 1000, maxMs: 60000 } },
  });
  const validate = ValidateBy({
    name: 'isRetryPolicy',
    validator: { validate: (value: unknown) => retryPolicyProblem(value) === null, defaultMessage: (args) => retryPolicyProblem(args?.value) ?? '' },
  });
  return (target, key) => {
    document(target, key);
    validate(target, key);
  };
}
