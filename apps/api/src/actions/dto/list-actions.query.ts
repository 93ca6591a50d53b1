import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsEnum, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ActionStatus } from '@app/domain';
import { IsStorableText } from './storable-text';

export class ListActionsQuery {
  @ApiPropertyOptional({ enum: ActionStatus })
  @IsOptional()
  @IsEnum(ActionStatus, { message: `status must be one of ${Object.values(ActionStatus).join(', ')}` })
  status?: ActionStatus;

  @ApiPropertyOptional({ example: 'HTTP_REQUEST' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  @IsStorableText()
  action?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 500, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be an integer from 1 to 500' })
  @Min(1, { message: 'limit must be an integer from 1 to 500' })
  @Max(500, { message: 'limit must be an integer from 1 to 500' })
  limit?: number;

  @ApiPropertyOptional({ description: 'nextCursor of the previous page' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  cursor?: string;
}
