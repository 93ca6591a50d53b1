import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsEnum, IsInt, IsObject, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { JsonObject } from '@app/database';
import { ActionRetryPolicy, DstPolicy, Frequency, MisfirePolicy } from '@app/domain';
import { UpdateActionRequest } from '@punctual/contract';
import { MAX_INT32 } from '../../input/limits';
import { OptionalNotNull } from '../../input/not-null';
import { AsSent } from './as-sent';
import { IsExecutionTime } from './execution-time';
import { IsCalendarName } from './calendar-name';
import { IsDstPolicy } from './dst-policy';
import { IsJitterMs } from './jitter-ms';
import { IsRetryPolicy } from './retry-policy';

/** May be left out or given as null (which clears the field); any other value must pass the field's rules. */
const OptionalOrNull = () => ValidateIf((_object: object, value: unknown) => value !== undefined && value !== null);

const REMAINDER_MESSAGE = `executionRemainder must be an integer ≥ 1 (at most ${MAX_INT32})`;

/**
 * Body of `PATCH /actions/:id`; any other field is rejected. `data` and `metadata` replace the old
 * ones whole. Every field may be left out; `null` clears `endAt`, `retryPolicy`, `callbackUrl` and `jitterMs` and is refused
 * for every other field (`repeat: false` is how a schedule is cleared).
 */
export class UpdateActionDto implements UpdateActionRequest {
  @ApiPropertyOptional({ oneOf: [{ type: 'integer' }, { type: 'string', format: 'date-time' }] })
  @OptionalNotNull()
  @IsExecutionTime()
  executionTime?: Date;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @OptionalNotNull()
  @IsObject()
  @AsSent()
  data?: JsonObject;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @OptionalNotNull()
  @IsObject()
  @AsSent()
  metadata?: JsonObject;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  repeat?: boolean;

  @ApiPropertyOptional({ enum: Frequency })
  @OptionalNotNull()
  @IsEnum(Frequency, { message: `frequency must be one of ${Object.values(Frequency).join(', ')}` })
  frequency?: Frequency;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_INT32 })
  @OptionalNotNull()
  @IsInt({ message: REMAINDER_MESSAGE })
  @Min(1, { message: REMAINDER_MESSAGE })
  @Max(MAX_INT32, { message: REMAINDER_MESSAGE })
  executionRemainder?: number;

  @ApiPropertyOptional({ enum: MisfirePolicy })
  @OptionalNotNull()
  @IsEnum(MisfirePolicy, { message: `misfirePolicy must be one of ${Object.values(MisfirePolicy).join(', ')}` })
  misfirePolicy?: MisfirePolicy;

  @ApiPropertyOptional({
    description: 'A new cron expression (replaces frequency); the current occurrence moves to its first time at or after executionTime',
  })
  @OptionalNotNull()
  @IsString()
  @MaxLength(200)
  cron?: string;

  @ApiPropertyOptional({ example: 'Europe/Berlin' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(64)
  timezone?: string;

  // OpenAPI 3.0 says null with `nullable` beside a `type`: each alternative carries it.
  @ApiPropertyOptional({
    anyOf: [
      { type: 'integer', nullable: true },
      { type: 'string', format: 'date-time', nullable: true },
    ],
    description: 'null removes the end',
  })
  @OptionalOrNull()
  @IsExecutionTime()
  endAt?: Date | null;

  @OptionalOrNull()
  @IsRetryPolicy()
  retryPolicy?: ActionRetryPolicy | null;

  @ApiPropertyOptional({ type: 'string', nullable: true, description: 'null removes the callback URL' })
  @OptionalOrNull()
  @IsString()
  callbackUrl?: string | null;

  @IsJitterMs()
  jitterMs?: number | null;

  @IsDstPolicy()
  dstPolicy?: DstPolicy | null;

  @IsCalendarName()
  calendar?: string | null;
}
