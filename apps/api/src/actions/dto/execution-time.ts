import { Transform } from 'class-transformer';
import { ValidateBy } from 'class-validator';
import { parseApiTime, TIME_RANGE_TEXT } from '../../input/api-time';

/** Accepts epoch milliseconds or an ISO-8601 string with a zone, within years 1970–9999, and turns it into a Date. */
export function IsExecutionTime(): PropertyDecorator {
  const transform = Transform(({ value }: { value: unknown }) => parseApiTime(value) ?? value);
  const validate = ValidateBy({
    name: 'isExecutionTime',
    validator: {
      validate: (value: unknown) => value instanceof Date,
      defaultMessage: (args) =>
        `${args?.property} must be epoch milliseconds (a number) or an ISO-8601 string with a zone, e.g. 2025-01-15T08:35:17.120Z, ` + TIME_RANGE_TEXT,
    },
  });
  return (target, key) => {
    transform(target, key);
    validate(target, key);
  };
}
