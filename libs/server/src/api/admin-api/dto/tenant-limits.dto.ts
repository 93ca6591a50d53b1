import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, Max, Min, ValidateIf } from 'class-validator';
import { MAX_INT32 } from '../../input/limits';

/** A limit given: a whole number ≥ 1, or null for the deployment's default. */
function Limit(): PropertyDecorator {
  const given = ValidateIf((_object: object, value: unknown) => value !== undefined && value !== null);
  return (target, key) => {
    ApiPropertyOptional({ type: 'integer', minimum: 1, nullable: true })(target, key);
    given(target, key);
    IsInt()(target, key);
    Min(1)(target, key);
    Max(MAX_INT32)(target, key);
  };
}

/** A tenant's own limits; a field left out is unchanged, null sets the deployment's default back. */
export class TenantLimitsDto {
  /** Its actions that may be PENDING or IN_PROGRESS at once (TENANT_MAX_ACTIVE_ACTIONS). */
  @Limit()
  maxActiveActions?: number | null;

  /** Creates per second, with bursts of ten times as many (TENANT_CREATE_RATE). */
  @Limit()
  createRate?: number | null;

  /** Attempts it runs at once across all workers (TENANT_MAX_CONCURRENCY). */
  @Limit()
  maxConcurrency?: number | null;
}
