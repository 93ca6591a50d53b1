import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { HistoryParams } from '@punctual/contract';

export const MAX_HISTORY_PAGE = 1000;
const LIMIT_MESSAGE = `limit must be an integer from 1 to ${MAX_HISTORY_PAGE}`;

/** Query of `GET /actions/:id/history`: one page of entries, oldest first. */
export class HistoryQuery implements HistoryParams {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_HISTORY_PAGE, default: MAX_HISTORY_PAGE })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: LIMIT_MESSAGE })
  @Min(1, { message: LIMIT_MESSAGE })
  @Max(MAX_HISTORY_PAGE, { message: LIMIT_MESSAGE })
  limit?: number;

  @ApiPropertyOptional({ description: 'Opaque; taken from the `Link: <…>; rel="next"` header of the previous page' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  cursor?: string;
}
