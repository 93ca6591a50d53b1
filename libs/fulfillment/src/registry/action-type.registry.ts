import { plainToInstance } from 'class-transformer';
import { ValidationError, validate } from 'class-validator';
import { ActionTypeDefinition } from './action-type-definition';
import { InvalidActionDataError, UnknownActionTypeError } from './data-validation.error';

/** The action types this deployment knows, shared by the API (early validation) and the worker. */
export class ActionTypeRegistry {
  private readonly byType = new Map<string, ActionTypeDefinition>();

  constructor(definitions: readonly ActionTypeDefinition[]) {
    for (const definition of definitions) {
      if (this.byType.has(definition.type)) throw new Error(`Action type ${definition.type} is defined twice`);
      this.byType.set(definition.type, definition);
    }
  }

  types(): string[] {
    return [...this.byType.keys()].sort();
  }

  has(type: string): boolean {
    return this.byType.has(type);
  }

  get(type: string): ActionTypeDefinition {
    const definition = this.byType.get(type);
    if (!definition) throw new UnknownActionTypeError(type, this.types());
    return definition;
  }

  /**
   * Checks `data` against the type's schema. Returns the data as given (defaults are
   * applied by the fulfillment, so what the client stored is what it reads back).
   * @param path prefix for field names in messages, e.g. `items.3.data`.
   */
  async validateData(type: string, data: object, path = 'data'): Promise<void> {
    const { dataClass } = this.get(type);
    const errors = await validate(plainToInstance(dataClass, data), {
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
    });
    if (errors.length > 0) throw new InvalidActionDataError(errors.flatMap((e) => describe(e, path)));
  }
}

function describe(error: ValidationError, parent: string): string[] {
  const path = `${parent}.${error.property}`;
  const own = Object.values(error.constraints ?? {}).map((message) => `${path}: ${message}`);
  return [...own, ...(error.children ?? []).flatMap((child) => describe(child, path))];
}
