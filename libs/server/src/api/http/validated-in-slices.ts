import { ValidationError } from 'class-validator';
import { mapInSlices } from './event-loop-slices';

/** The array property of each class marked with `@ValidatedInSlices()`. */
const slicedProperties = new WeakMap<object, string>();

/**
 * Marks an array of nested DTOs (beside its `@ValidateNested({ each: true })`) whose items
 * `ApiValidationPipe` checks one by one in slices: a thousand of them hold no other request back
 * meanwhile. The answer is the same as checking them all at once.
 */
export function ValidatedInSlices(): PropertyDecorator {
  return (prototype, property) => {
    slicedProperties.set(prototype.constructor, String(property));
  };
}

type Validate = (target: object) => Promise<ValidationError[]>;

/**
 * The errors `validate(object)` gives, found in slices when the object's class marks an array
 * property with `@ValidatedInSlices()`; else null (validate it whole). The object's own checks see
 * the array with its places left empty (its length, not its items); each item is checked alone,
 * in an object that holds only it, and its errors are put back under its index, where checking
 * the whole array puts them.
 */
export async function validatedInSlices(object: object, validate: Validate): Promise<ValidationError[] | null> {
  const property = slicedProperties.get(object.constructor);
  const items = property === undefined ? undefined : (object as Record<string, unknown>)[property];
  if (property === undefined || !Array.isArray(items)) return null;
  const holding = (value: unknown[], from: object = {}) =>
    Object.assign(Object.create(Object.getPrototypeOf(object) as object) as object, from, { [property]: value });
  const errors = await validate(holding(new Array<unknown>(items.length), object));
  const itemErrors = await mapInSlices(items, async (item, index) => {
    const error = (await validate(holding([item]))).find((found) => found.property === property)?.children?.[0];
    if (error) error.property = String(index);
    return error;
  });
  const children = itemErrors.filter((error) => error !== undefined);
  let own = errors.find((error) => error.property === property);
  if (!own && children.length > 0) errors.push((own = Object.assign(new ValidationError(), { property })));
  if (own) Object.assign(own, { value: items, children });
  return errors;
}
