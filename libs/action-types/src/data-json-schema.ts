import { Type } from '@nestjs/common';
import { ValidationTypes, getMetadataStorage } from 'class-validator';
import { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

/** A JSON Schema (OpenAPI 3.0 dialect) object. */
export type JsonSchema = Record<string, unknown>;

/** What each validator says about a property, for the validators action-type schemas use. */
const BY_VALIDATOR: Record<string, (constraints: unknown[]) => JsonSchema> = {
  isString: () => ({ type: 'string' }),
  maxLength: ([max]) => ({ type: 'string', maxLength: max }),
  isLength: ([min, max]) => ({ type: 'string', minLength: min, ...(max === undefined ? {} : { maxLength: max }) }),
  isIn: ([values]) => ({ enum: values }),
  isEnum: ([entity]) => ({ enum: Object.values(entity as object) }),
  isInt: () => ({ type: 'integer' }),
  min: ([min]) => ({ minimum: min }),
  max: ([max]) => ({ maximum: max }),
  isBoolean: () => ({ type: 'boolean' }),
  isObject: () => ({ type: 'object' }),
  isEmail: () => ({ type: 'string', format: 'email' }),
  matches: ([pattern]) => ({ type: 'string', pattern: (pattern as RegExp).source }),
  isOutboundUrl: () => ({ type: 'string', format: 'uri', description: 'An http or https URL, without user information' }),
  isStringRecord: () => ({ type: 'object', additionalProperties: { type: 'string' } }),
  isSendableHeaders: () => ({
    description:
      'Sent as given. Not Host, Forwarded, X-Forwarded-* nor the headers Punctual sets (Idempotency-Key, webhook-*, Content-Length, Transfer-Encoding)',
  }),
  isGrpcTarget: () => ({ type: 'string', description: 'host:port: a host name or an IP address (IPv6 in brackets) and a port' }),
  isMessageObject: () => ({ type: 'object', description: 'The request message as JSON, field names as the proto spells them; at most 64 KiB' }),
  isSendableMetadata: () => ({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Sent as gRPC metadata. Not grpc-*, *-bin, the headers gRPC sets nor those Punctual sets (idempotency-key, webhook-*)',
  }),
};

/**
 * The JSON Schema of an action type's `data` class, read from its class-validator decorators:
 * the schema the API validates with is the one the OpenAPI document publishes. A property with
 * `@IsOptional()` or `@ValidateIf()` is not required; one with only `@Allow()` is optional and takes any JSON value.
 */
export function dataJsonSchema(dataClass: Type): JsonSchema {
  const metadatas = getMetadataStorage().getTargetValidationMetadatas(dataClass, '', true, false);
  const byProperty = new Map<string, ValidationMetadata[]>();
  for (const metadata of metadatas) byProperty.set(metadata.propertyName, [...(byProperty.get(metadata.propertyName) ?? []), metadata]);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [property, rules] of byProperty) {
    properties[property] = Object.assign({}, ...rules.map(propertySchema)) as JsonSchema;
    const optional =
      rules.every((rule) => rule.type === ValidationTypes.WHITELIST) || rules.some((rule) => rule.type === ValidationTypes.CONDITIONAL_VALIDATION);
    if (!optional) required.push(property);
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

function propertySchema(rule: ValidationMetadata): JsonSchema {
  if (rule.type !== ValidationTypes.CUSTOM_VALIDATION) return {};
  const name = (getMetadataStorage().getTargetValidatorConstraints(rule.constraintCls)[0]?.name ?? rule.name) as string | undefined;
  return (name ? BY_VALIDATOR[name]?.(rule.constraints ?? []) : undefined) ?? {};
}
