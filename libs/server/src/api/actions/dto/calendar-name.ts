import { ApiPropertyOptional } from '@nestjs/swagger';
import { ValidateBy, ValidateIf } from 'class-validator';
import { isCalendarName } from '@app/domain';

export const CALENDAR_NAME_RULE = '1–64 characters of A–Z, a–z, 0–9, _ and -';

/** An action's `calendar`: may be left out or null (none; on a change, it clears it), else a calendar's name. */
export function IsCalendarName(): PropertyDecorator {
  const documented = ApiPropertyOptional({
    type: 'string',
    nullable: true,
    pattern: '^[A-Za-z0-9_-]{1,64}$',
    description: 'The calendar whose dates a repeating schedule skips (PUT /calendars/:name); null: none',
  });
  const given = ValidateIf((_object: object, value: unknown) => value !== undefined && value !== null);
  const named = ValidateBy({
    name: 'isCalendarName',
    validator: { validate: isCalendarName, defaultMessage: () => `calendar must be a calendar's name (${CALENDAR_NAME_RULE}), or null` },
  });
  return (target, key) => {
    documented(target, key);
    given(target, key);
    named(target, key);
  };
}
