import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsEnum, IsInt, IsNotEmpty, IsObject, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { JsonObject } from '@app/database';
import { ActionRetryPolicy, DstPolicy, Frequency, MisfirePolicy } from '@app/domain';
import { CreateActionRequest } from '@punctual/contract';
import { MAX_INT32 } from '../../input/limits';
import { NotNull, OptionalNotNull } from '../../input/not-null';
import { AsSent } from './as-sent';
import { IsExecutionTime } from './execution-time';
import { IsCalendarName } from './calendar-name';
import { IsDstPolicy } from './dst-policy';
import { IsJitterMs } from './jitter-ms';
import { IsRetryPolicy } from './retry-policy';
import { HoldsActionData } from '../../http/action-data-problems';

const FREQUENCY_MESSAGE = `frequency must be one of ${Object.values(Frequency).join(', ')} when repeat is true`;
const REMAINDER_MESSAGE = `executionRemainder must be an integer ≥ 1 (at most ${MAX_INT32}) when repeat is true (optional with cron: absent means no limit)`;

/** Body of `POST /actions` and each item of a batch. */
@HoldsActionData()
export class CreateActionDto implements CreateActionRequest {
  @ApiProperty({ example: 'SEND_NOTIFICATION', description: 'A registered action type' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  action: string;

  @ApiPropertyOptional({
    oneOf: [
      { type: 'integer', minimum: 100_000_000_000, description: 'epoch milliseconds; below 100000000000 (1973-03-03) is refused as seconds' },
      { type: 'string', format: 'date-time' },
    ],
    example: '2030-01-15T08:35:17.120Z',
    description:
      'When to run; now or in the past means immediately. With cron it may be left out (default now): the first occurrence is the first cron time at or after it',
  })
  @ValidateIf((dto: CreateActionDto) => dto.cron === undefined || dto.executionTime !== undefined)
  @IsExecutionTime()
  executionTime?: Date;

  @ApiProperty({ type: 'object', additionalProperties: true, description: "Validated against the action type's schema" })
  @IsObject()
  @AsSent()
  data: JsonObject;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, default: {}, description: 'Returned as given' })
  @OptionalNotNull()
  @IsObject()
  @AsSent()
  metadata?: JsonObject;

  @ApiPropertyOptional({ default: false })
  @OptionalNotNull()
  @IsBoolean()
  repeat?: boolean;

  @ApiPropertyOptional({ enum: Frequency, description: 'Required when repeat is true' })
  @ValidateIf((dto: CreateActionDto) => (dto.repeat === true && dto.cron === undefined) || dto.frequency !== undefined)
  @NotNull()
  @IsEnum(Frequency, { message: FREQUENCY_MESSAGE })
  frequency?: Frequency;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_INT32,
    description: 'Required when repeat is true with a frequency: executions still to run, this one included; optional with cron',
  })
  @ValidateIf((dto: CreateActionDto) => (dto.repeat === true && dto.cron === undefined) || dto.executionRemainder !== undefined)
  @NotNull()
  @IsInt({ message: REMAINDER_MESSAGE })
  @Min(1, { message: REMAINDER_MESSAGE })
  @Max(MAX_INT32, { message: REMAINDER_MESSAGE })
  executionRemainder?: number;

  @ApiPropertyOptional({
    enum: MisfirePolicy,
    default: MisfirePolicy.RunOnce,
    description:
      'When a repeating action finds its next time already past: RUN_ONCE runs one catch-up now then continues after now; ' +
      'RUN_ALL runs every missed occurrence; SKIP continues with the first time after now',
  })
  @OptionalNotNull()
  @IsEnum(MisfirePolicy, { message: `misfirePolicy must be one of ${Object.values(MisfirePolicy).join(', ')}` })
  misfirePolicy?: MisfirePolicy;

  @ApiPropertyOptional({
    example: '0 9 * * MON-FRI',
    description: 'With repeat: true, instead of frequency: 5 fields (minute hour day-of-month month day-of-week) or 6 (seconds first), read in timezone',
  })
  @OptionalNotNull()
  @IsString()
  @MaxLength(200)
  cron?: string;

  @ApiPropertyOptional({
    example: 'Europe/Berlin',
    default: 'UTC',
    description: 'IANA zone of the schedule: cron is read in it; DAILY, WEEKLY and MONTHLY keep their local time in it across daylight saving',
  })
  @OptionalNotNull()
  @IsString()
  @MaxLength(64)
  timezone?: string;

  @ApiPropertyOptional({ oneOf: [{ type: 'integer' }, { type: 'string', format: 'date-time' }], description: 'No occurrence runs after this time' })
  @OptionalNotNull()
  @IsExecutionTime()
  endAt?: Date;

  @OptionalNotNull()
  @IsRetryPolicy()
  retryPolicy?: ActionRetryPolicy;

  @ApiPropertyOptional({ example: 'https://example.com/punctual-events', description: "Receives this action's lifecycle webhooks (http or https)" })
  @OptionalNotNull()
  @IsString()
  callbackUrl?: string;

  @IsJitterMs()
  jitterMs?: number | null;

  @IsDstPolicy()
  dstPolicy?: DstPolicy | null;

  @IsCalendarName()
  calendar?: string | null;
}
