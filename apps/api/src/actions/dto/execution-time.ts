import { Transform } from 'class-transformer';
import { ValidateBy } from 'class-validator';

/** ISO-8601 date-time with an explicit zone (`Z` or `±hh:mm`); a zone-less time would be ambiguous. */
const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

function toDate(value: unknown): unknown {
  if (typeof value === 'number' && Number.isFinite(value)) return new Date(value);
  if (typeof value === 'string' && ISO_WITH_ZONE.test(value)) return new Date(value);
  return value;
}

/** Accepts epoch milliseconds or an ISO-8601 string with a zone and turns it into a Date. */
export function IsExecutionTime(): PropertyDecorator {
  const transform = Transform(({ value }) => toDate(value));
  const validate = ValidateBy({
    name: 'isExecutionTime',
    validator: {
      validate: (value: unknown) => value instanceof Date && !Number.isNaN(value.getTime()),
      defaultMessage: () =>
        'executionTime must be epoch milliseconds (a number) or an ISO-8601 string with a zone, e.g. 2025-01-15T08:35:17.120Z',
    },
  });
  return (target, key) => {
    transform(target, key);
    validate(target, key);
  };
}
