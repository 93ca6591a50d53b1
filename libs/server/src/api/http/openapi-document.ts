import { ApiPropertyOptions, OpenAPIObject, getSchemaPath } from '@nestjs/swagger';
import { ActionTypeRegistry, dataJsonSchema } from '@app/action-types';

type Schema = Record<string, unknown>;
type Operation = {
  operationId?: string;
  parameters?: { name: string; in: string; required?: boolean }[];
  responses?: Record<string, Schema>;
  security?: Record<string, string[]>[];
};

export const ERROR_SCHEMA = 'ErrorResponse';
const CREATE_SCHEMA = 'CreateActionDto';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * A property holding a `model` or null. OpenAPI 3.0 cannot say that with `nullable` beside a
 * reference (null fails the referenced schema); an alternative that is only null can.
 */
export function modelOrNull(model: new () => object): ApiPropertyOptions {
  return { anyOf: [{ $ref: getSchemaPath(model) }, { type: 'object', nullable: true, enum: [null] }] };
}

/** `ActionsController.remove` → `deleteAction`: a verb and the resource, as generators name their functions. */
export function operationId(controllerKey: string, methodKey: string): string {
  const plural = controllerKey.replace(/Controller$/, '');
  const singular = plural.replace(/s$/, '');
  const names: Record<string, string> = {
    list: `list${plural}`,
    get: `get${singular}`,
    remove: `delete${singular}`,
    stats: `get${singular}Stats`,
    history: `get${singular}History`,
    occurrences: `get${singular}Occurrences`,
    createBatch: `create${singular}Batch`,
    check: `check${plural}`,
  };
  return names[methodKey] ?? `${methodKey}${singular}`;
}

/**
 * What the decorators cannot say, added to the generated document so that a client generator can
 * trust it: one security requirement holding all four signature headers (they are needed
 * together, not one of them), each header parameter once, the error body on every error answer,
 * `null` in the values of a nullable enum, and a create body whose `data` schema is chosen by
 * `action`, from the schemas the API validates with.
 */
export function refineOpenApiDocument(document: OpenAPIObject, signatureSchemes: readonly string[], registry: ActionTypeRegistry): OpenAPIObject {
  const schemas = ((document.components ??= {}).schemas ??= {});
  schemas[ERROR_SCHEMA] = {
    type: 'object',
    required: ['statusCode', 'error', 'message'],
    properties: {
      statusCode: { type: 'integer', example: 400 },
      error: { type: 'string', example: 'Bad Request' },
      message: {
        oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
        description: 'One problem, or one per field that is wrong, each naming the field',
      },
    },
  };
  for (const path of Object.values(document.paths)) {
    for (const method of METHODS) {
      const operation = path[method] as Operation | undefined;
      if (!operation) continue;
      operation.security = oneRequirement(operation.security, signatureSchemes);
      operation.parameters = onceEach(operation.parameters);
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (Number(status) >= 400) response.content ??= { 'application/json': { schema: { $ref: `#/components/schemas/${ERROR_SCHEMA}` } } };
      }
    }
  }
  nullInNullableEnums(document);
  if (schemas[CREATE_SCHEMA]) selectDataByAction(schemas as Record<string, Schema>, registry);
  return document;
}

/** OpenAPI 3.0 checks `enum` before `nullable`: a null answer passes only when the enum lists null too. */
function nullInNullableEnums(node: unknown): void {
  if (typeof node !== 'object' || node === null) return;
  const schema = node as Schema & { enum?: unknown[] };
  if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
  for (const value of Object.values(schema)) nullInNullableEnums(value);
}

/** Requirements naming signature schemes one by one (any would do) become one that needs them all. */
function oneRequirement(security: Operation['security'], schemes: readonly string[]): Operation['security'] {
  if (!security?.some((requirement) => Object.keys(requirement).some((name) => schemes.includes(name)))) return security;
  const others = security.filter((requirement) => !Object.keys(requirement).some((name) => schemes.includes(name)));
  return [Object.fromEntries(schemes.map((name) => [name, []])), ...others];
}

/** A header read by a handler and documented with `@ApiHeader` appears twice (once as required); keep the documented, optional one. */
function onceEach(parameters: Operation['parameters']): Operation['parameters'] {
  if (!parameters) return parameters;
  const key = (p: { name: string; in: string }) => `${p.in}:${p.in === 'header' ? p.name.toLowerCase() : p.name}`;
  const kept = new Map<string, (typeof parameters)[number]>();
  for (const parameter of parameters) {
    const seen = kept.get(key(parameter));
    if (!seen || (seen.required && !parameter.required) || 'description' in parameter) kept.set(key(parameter), parameter);
  }
  return [...kept.values()];
}

/** `CreateActionDto` becomes one variant per action type, told apart by `action`, each with its own `data` schema. */
function selectDataByAction(schemas: Record<string, Schema>, registry: ActionTypeRegistry): void {
  schemas.CreateActionFields = schemas[CREATE_SCHEMA];
  const mapping: Record<string, string> = {};
  for (const type of registry.types()) {
    const name = pascal(type);
    schemas[`${name}Data`] = dataJsonSchema(registry.get(type).dataClass);
    schemas[`Create${name}Action`] = {
      allOf: [
        { $ref: '#/components/schemas/CreateActionFields' },
        {
          type: 'object',
          required: ['action', 'data'],
          properties: { action: { type: 'string', enum: [type] }, data: { $ref: `#/components/schemas/${name}Data` } },
        },
      ],
    };
    mapping[type] = `#/components/schemas/Create${name}Action`;
  }
  schemas[CREATE_SCHEMA] = {
    description: 'A create body; `data` must fit the schema of the type `action` names',
    oneOf: Object.values(mapping).map(($ref) => ({ $ref })),
    discriminator: { propertyName: 'action', mapping },
  };
}

/** `SEND_NOTIFICATION` → `SendNotification` */
function pascal(type: string): string {
  return type
    .toLowerCase()
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}
