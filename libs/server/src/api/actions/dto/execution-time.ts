import { Transform } from 'class-transformer';
import { ValidateBy } from 'class-validator';
import { MIN_EPOCH_MS, looksLikeSeconds, parseApiTime, TIME_RANGE_TEXT } from '../../input/api-time';

/**
 * Accepts epoch milliseconds (from 1973-03-03) or an ISO-8601 string with a zone, within years
 * 1970–9999, and turns it into a Date. A number that looks like seconds is refused as such.
 */
export function IsExecutionTime(): PropertyDecorator {
  const transform = Transform(({ value }: { value: unknown }) => parseApiTime(value) ?? value);
  const validate = ValidateBy({
    name: 'isExecutionTime',
    validator: {
      validate: (value: unknown) => value instanceof Date,
      defaultMessage: (args) =>
        looksLikeSeconds(args?.value)
          ? `${args?.property} must be epoch milliseconds, not seconds: ${args?.value} is below ${MIN_EPOCH_MS} (before ${new Date(MIN_EPOCH_MS).toISOString()})`
          : `${args?.property} must be epoch milliseconds (a number) or an ISO-8601 string with a zone, e.g. 2025-01-15T08:35:17.120Z, ` + TIME_RANGE_TEXT,
    },
  });
  return (target, key) => {
    transform(target, key);
    validate(target, key);
  };
}
