import { PipeTransform } from '@nestjs/common';
import { isCalendarName } from '@app/domain';
import { InvalidRequestError } from '../errors/action.errors';
import { CALENDAR_NAME_RULE } from '../actions/dto/calendar-name';

/** A calendar's name from a path or a message: anything else is a 400 that says what a name may be. */
export class CalendarNamePipe implements PipeTransform<unknown, string> {
  transform(value: unknown): string {
    if (!isCalendarName(value)) throw new InvalidRequestError(`name must be ${CALENDAR_NAME_RULE}`);
    return value;
  }
}

export const CALENDAR_NAME = new CalendarNamePipe();
