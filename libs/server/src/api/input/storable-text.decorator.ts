import { ValidateBy } from 'class-validator';
import { unstorableTextProblem } from './storable-text';

/** Text that Postgres can store as it is; see `unstorableTextProblem`. */
export function IsStorableText(): PropertyDecorator {
  return ValidateBy({
    name: 'isStorableText',
    validator: {
      validate: (value: unknown) => typeof value !== 'string' || unstorableTextProblem(value) === null,
      defaultMessage: (args) => `${args?.property} ${unstorableTextProblem(String(args?.value))}`,
    },
  });
}
