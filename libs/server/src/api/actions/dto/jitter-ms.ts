import { ApiPropertyOptional } from '@nestjs/swagger';
import { ValidateBy, ValidateIf } from 'class-validator';
import { MAX_JITTER_MS } from '@app/domain';

/**
 * `jitterMs`: may be left out or null (no jitter; on a change, it clears it), else an integer of
 * ms from 0 to an hour.
 */
export function IsJitterMs(): PropertyDecorator {
  const documented = ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_JITTER_MS,
    nullable: true,
    description: 'Each occurrence runs up to this many ms after its time, by a delay fixed for that occurrence; null: at its time',
  });
  const given = ValidateIf((_object: object, value: unknown) => value !== undefined && value !== null);
  const inRange = ValidateBy({
    name: 'isJitterMs',
    validator: {
      validate: (value: unknown) => Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_JITTER_MS,
      defaultMessage: () => `jitterMs must be an integer of ms from 0 to ${MAX_JITTER_MS} (an hour), or null`,
    },
  });
  return (target, key) => {
    documented(target, key);
    given(target, key);
    inRange(target, key);
  };
}
