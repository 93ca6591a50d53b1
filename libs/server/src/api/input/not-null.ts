import { ValidateBy, ValidateIf, ValidationOptions } from 'class-validator';

/**
 * Refuses `null` with a message naming the field. `@IsOptional()` would let null through to a
 * NOT NULL column, and `?? default` would silently read it as "not given".
 */
export function NotNull(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    { name: 'notNull', validator: { validate: (value: unknown) => value !== null, defaultMessage: (args) => `${args?.property} must not be null` } },
    options,
  );
}

/** May be left out, but not given as null: the field's other rules apply to every value given. */
export function OptionalNotNull(): PropertyDecorator {
  const optional = ValidateIf((_object: object, value: unknown) => value !== undefined);
  const notNull = NotNull();
  return (target, key) => {
    optional(target, key);
    notNull(target, key);
  };
}
