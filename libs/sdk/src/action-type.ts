/**
 * An action type as both apps know it: its name and the class-validator class its
 * `data` must satisfy. The API validates with it before storing; the worker's
 * fulfillment for the type receives it as an instance of this class. `TType` is the
 * name as a literal type, which `ActionTypeMap` of `@punctual/client` reads.
 */
export interface ActionTypeDefinition<TData extends object = object, TType extends string = string> {
  readonly type: TType;
  readonly dataClass: DataClass<TData>;
}

/** A class-validator class whose instances are an action type's `data`. */
export type DataClass<TData extends object = object> = new () => TData;

/** Declares an action type; the generics tie the type name to its data shape, for fulfillments and for typed clients. */
export function defineActionType<TData extends object, TType extends string = string>(
  definition: ActionTypeDefinition<TData, TType>,
): ActionTypeDefinition<TData, TType> {
  if (!/^[A-Z][A-Z0-9_]{0,63}$/.test(definition.type)) {
    throw new Error(`Action type "${definition.type}" must be UPPER_SNAKE_CASE, at most 64 characters`);
  }
  return definition;
}
