import { ApiPropertyOptional } from '@nestjs/swagger';
import { ValidateByProblems } from '../../input/field-problems';

const MIN_DELAY_MS = 100;
const MAX_DELAY_MS = 7 * 86_400_000;
const MAX_RETRIES = 25;
const MAX_LIST = 25;

const isDelay = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= MIN_DELAY_MS && (value as number) <= MAX_DELAY_MS;
const DELAY_TEXT = `an integer of ms from ${MIN_DELAY_MS} to ${MAX_DELAY_MS} (7 days)`;

/** Why `value` is not a retry policy an action can carry: every problem, each naming its field; none when it is one. */
export function retryPolicyProblems(value: unknown): string[] {
  if (!isObject(value)) return ['retryPolicy must be an object { maxRetries, backoff }'];
  const { maxRetries, backoff, ...rest } = value;
  const problems = Object.keys(rest).map((extra) => `retryPolicy.${extra} should not exist`);
  if (!Number.isInteger(maxRetries) || (maxRetries as number) < 0 || (maxRetries as number) > MAX_RETRIES)
    problems.push(`retryPolicy.maxRetries must be an integer from 0 to ${MAX_RETRIES}`);
  if (!isObject(backoff)) return [...problems, 'retryPolicy.backoff must be an object with a type: exponential, fixed or list'];
  return [...problems, ...backoffProblems(backoff)];
}

function backoffProblems(backoff: Record<string, unknown>): string[] {
  const fields = BACKOFF_FIELDS[backoff.type as string];
  if (fields === undefined) return ['retryPolicy.backoff.type must be exponential, fixed or list'];
  const problems = Object.keys(backoff)
    .filter((key) => key !== 'type' && !fields.includes(key))
    .map((key) => `retryPolicy.backoff.${key} should not exist`);
  const delay = (key: string) => (isDelay(backoff[key]) ? [] : [`retryPolicy.backoff.${key} must be ${DELAY_TEXT}`]);
  switch (backoff.type) {
    case 'exponential': {
      const own = [...delay('baseMs'), ...delay('maxMs')];
      if (own.length === 0 && (backoff.baseMs as number) > (backoff.maxMs as number)) own.push('retryPolicy.backoff.baseMs must not exceed maxMs');
      return [...problems, ...own];
    }
    case 'fixed':
      return [...problems, ...delay('delayMs')];
    default: {
      const delays = backoff.delaysMs;
      if (!Array.isArray(delays) || delays.length < 1 || delays.length > MAX_LIST)
        return [...problems, `retryPolicy.backoff.delaysMs must list 1 to ${MAX_LIST} delays`];
      return delays.every(isDelay) ? problems : [...problems, `retryPolicy.backoff.delaysMs must each be ${DELAY_TEXT}`];
    }
  }
}

const BACKOFF_FIELDS: Record<string, readonly string[]> = { exponential: ['baseMs', 'maxMs'], fixed: ['delayMs'], list: ['delaysMs'] };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A per-action retry policy (contract shape); it wins over the type's and the global one. */
export function IsRetryPolicy(): PropertyDecorator {
  const document = ApiPropertyOptional({
    description: `{ maxRetries: 0–${MAX_RETRIES}, backoff: { type: "exponential", baseMs, maxMs } | { type: "fixed", delayMs } | { type: "list", delaysMs: [1–${MAX_LIST}] } }; delays ${MIN_DELAY_MS} ms – 7 days, the last of a list repeats`,
    type: 'object',
    additionalProperties: true,
    example: { maxRetries: 5, backoff: { type: 'exponential', baseMs: 1000, maxMs: 60000 } },
  });
  const validate = ValidateByProblems('isRetryPolicy', retryPolicyProblems);
  return (target, key) => {
    document(target, key);
    validate(target, key);
  };
}
