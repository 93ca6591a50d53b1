import { Type as Class } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { PageParams } from '@punctual/contract';

/** `?limit=&cursor=` of a keyset-paged list: at most `max` items a page, `byDefault` when `limit` is not given. */
export function pageQuery(max: number, byDefault: number): Class<PageParams> {
  const limitMessage = `limit must be an integer from 1 to ${max}`;

  class Page implements PageParams {
    @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: max, default: byDefault })
    @IsOptional()
    @Type(() => Number)
    @IsInt({ message: limitMessage })
    @Min(1, { message: limitMessage })
    @Max(max, { message: limitMessage })
    limit?: number;

    @ApiPropertyOptional({ description: 'nextCursor of the previous page' })
    @IsOptional()
    @IsString()
    @MaxLength(200)
    cursor?: string;
  }
  return Page;
}

/** `?limit=&cursor=` of the actions list and of a subscription's deliveries: at most 500 items a page, 50 by default. */
export class PageQuery extends pageQuery(500, 50) {}
