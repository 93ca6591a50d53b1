import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { SkipOccurrencesRequest } from '@punctual/contract';
import { OptionalNotNull } from '../../input/not-null';

/** Most occurrences one request may skip: enough for a holiday season of a daily schedule, and a bound on one change's history. */
export const MAX_SKIP_COUNT = 100;

/** Body of `POST /actions/:id/skip` (may be empty: one occurrence); any other field is rejected. */
export class SkipOccurrencesDto implements SkipOccurrencesRequest {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_SKIP_COUNT, default: 1, description: 'How many of the next occurrences not to run' })
  @OptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(MAX_SKIP_COUNT)
  count?: number;
}
