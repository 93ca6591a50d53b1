import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { Occurrences } from '@punctual/contract';

export const MAX_OCCURRENCES = 100;
const COUNT_MESSAGE = `count must be an integer from 1 to ${MAX_OCCURRENCES}`;

/** Query of `GET /actions/:id/occurrences` and `POST /actions/preview`. */
export class OccurrencesQuery {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_OCCURRENCES, default: 10 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: COUNT_MESSAGE })
  @Min(1, { message: COUNT_MESSAGE })
  @Max(MAX_OCCURRENCES, { message: COUNT_MESSAGE })
  count?: number;
}

export class OccurrencesResponse implements Occurrences {
  @ApiProperty({ type: [String], format: 'date-time', description: 'ISO-8601 UTC, oldest first; fewer than count when the schedule ends' })
  occurrences: string[];

  static from(times: Date[]): OccurrencesResponse {
    return { occurrences: times.map((time) => time.toISOString()) };
  }
}
