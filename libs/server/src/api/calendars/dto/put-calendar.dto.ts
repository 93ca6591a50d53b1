import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsString, MaxLength, ValidateBy, ValidateIf } from 'class-validator';
import { MAX_CALENDAR_DATES, isCalendarDay } from '@app/domain';
import { PutCalendarRequest } from '@punctual/contract';
import { IsStorableText } from '../../input/storable-text.decorator';

/** Body of `PUT /calendars/:name`; any other field is rejected. */
export class PutCalendarDto implements PutCalendarRequest {
  @ApiProperty({ type: [String], example: ['2027-01-01', '2027-12-25'], description: `Local dates YYYY-MM-DD, at most ${MAX_CALENDAR_DATES}` })
  @IsArray()
  @ArrayMaxSize(MAX_CALENDAR_DATES, { message: `dates must list at most ${MAX_CALENDAR_DATES} dates` })
  @ValidateBy(
    {
      name: 'isCalendarDay',
      validator: { validate: isCalendarDay, defaultMessage: () => 'each value in dates must be a date that exists, as YYYY-MM-DD' },
    },
    { each: true },
  )
  dates: string[];

  @ApiPropertyOptional({ type: 'string', nullable: true, maxLength: 1000, example: 'Public holidays, Germany' })
  @ValidateIf((_object: object, value: unknown) => value !== undefined && value !== null)
  @IsString()
  @MaxLength(1000)
  @IsStorableText()
  description?: string | null;
}
