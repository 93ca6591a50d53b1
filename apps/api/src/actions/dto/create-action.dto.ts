import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsEnum, IsInt, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength, Min, ValidateIf } from 'class-validator';
import { Frequency, JsonObject, MisfirePolicy } from '@app/database';
import { IsExecutionTime } from './execution-time';

const FREQUENCY_MESSAGE = `frequency must be one of ${Object.values(Frequency).join(', ')} when repeat is true`;

/** Body of `POST /actions` and each item of a batch. */
export class CreateActionDto {
  @ApiProperty({ example: 'SEND_NOTIFICATION', description: 'A registered action type' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  action: string;

  @ApiProperty({
    oneOf: [{ type: 'number', description: 'epoch milliseconds' }, { type: 'string', format: 'date-time' }],
    example: '2025-01-15T08:35:17.120Z',
    description: 'When to run; now or in the past means immediately',
  })
  @IsExecutionTime()
  executionTime: Date;

  @ApiProperty({ type: 'object', additionalProperties: true, description: "Validated against the action type's schema" })
  @IsObject()
  data: JsonObject;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, default: {}, description: 'Returned as given' })
  @IsOptional()
  @IsObject()
  metadata?: JsonObject;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  repeat?: boolean;

  @ApiPropertyOptional({ enum: Frequency, description: 'Required when repeat is true' })
  @ValidateIf((dto: CreateActionDto) => dto.repeat === true || dto.frequency !== undefined)
  @IsEnum(Frequency, { message: FREQUENCY_MESSAGE })
  frequency?: Frequency;

  @ApiPropertyOptional({ minimum: 1, description: 'Required when repeat is true: executions still to run, this one included' })
  @ValidateIf((dto: CreateActionDto) => dto.repeat === true || dto.executionRemainder !== undefined)
  @IsInt({ message: 'executionRemainder must be an integer ≥ 1 when repeat is true' })
  @Min(1, { message: 'executionRemainder must be an integer ≥ 1 when repeat is true' })
  executionRemainder?: number;

  @ApiPropertyOptional({
    enum: MisfirePolicy,
    default: MisfirePolicy.RunOnce,
    description:
      'When a repeating action finds its next time already past: RUN_ONCE runs one catch-up now then continues after now; ' +
      'RUN_ALL runs every missed occurrence; SKIP continues with the first time after now',
  })
  @IsOptional()
  @IsEnum(MisfirePolicy, { message: `misfirePolicy must be one of ${Object.values(MisfirePolicy).join(', ')}` })
  misfirePolicy?: MisfirePolicy;
}
