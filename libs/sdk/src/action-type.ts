/**
 * An action type as both apps know it: its name and the class-validator class its
 * `data` must satisfy. The API validates with it before storing; the worker's
 * fulfillment for the type receives it as an instance of this class.
 */
export interface ActionTypeDefinition<TData extends object = object> {
  readonly type: string;
  readonly dataClass: DataClass<TData>;
}

/** A class-validator class whose instances are an action type's `data`. */
export type DataClass<TData extends object = object> = new () => TData;

/** Declares an action type; the generic ties the type name to its data shape for fulfillments. */
export function defineActionType<TData extends object>(definition: ActionTypeDefinition<TData>): ActionTypeDefinition<TData> {
  if (!/^[A-Z][A-Z0-9_]{0,63}$/.test(definition.type)) {
    throw new Error(`Action type "${definition.type}" must be UPPER_SNAKE_CASE, at most 64 characters`);
  }
  return definition;
}
