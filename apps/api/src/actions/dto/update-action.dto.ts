import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsEnum, IsInt, IsObject, IsOptional, Min } from 'class-validator';
import { Frequency, JsonObject, MisfirePolicy } from '@app/database';
import { IsExecutionTime } from './execution-time';

/** Body of `PATCH /actions/:id`; any other field is rejected. `data` and `metadata` replace the old ones whole. */
export class UpdateActionDto {
  @ApiPropertyOptional({ oneOf: [{ type: 'number' }, { type: 'string', format: 'date-time' }] })
  @IsOptional()
  @IsExecutionTime()
  executionTime?: Date;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @IsOptional()
  @IsObject()
  data?: JsonObject;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @IsOptional()
  @IsObject()
  metadata?: JsonObject;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  repeat?: boolean;

  @ApiPropertyOptional({ enum: Frequency })
  @IsOptional()
  @IsEnum(Frequency, { message: `frequency must be one of ${Object.values(Frequency).join(', ')}` })
  frequency?: Frequency;

  @ApiPropertyOptional({ minimum: 1 })
  @IsOptional()
  @IsInt()
  @Min(1)
  executionRemainder?: number;

  @ApiPropertyOptional({ enum: MisfirePolicy })
  @IsOptional()
  @IsEnum(MisfirePolicy, { message: `misfirePolicy must be one of ${Object.values(MisfirePolicy).join(', ')}` })
  misfirePolicy?: MisfirePolicy;
}
