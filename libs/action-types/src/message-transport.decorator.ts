import 'reflect-metadata';
import { Type } from '@nestjs/common';
import { IsString, ValidateBy } from 'class-validator';
import { DEFAULT_MESSAGE_TRANSPORT } from '@app/config';
import { messagePatternProblem } from '@app/domain';

const TRANSPORT_NAMES = 'punctual:message-transport-properties';
const PATTERNS = 'punctual:message-pattern-property';

/**
 * Marks a field of action data as the name of a configured message transport
 * (`MESSAGE_TRANSPORTS`). The names are the deployment's, not the schema's, so
 * `ActionTypeRegistry` checks them against the names it was given.
 */
export function MessageTransportName(): PropertyDecorator {
  const isString = IsString();
  return (target, property) => {
    isString(target, property);
    Reflect.defineMetadata(TRANSPORT_NAMES, [...messageTransportProperties(target.constructor as Type), String(property)], target.constructor);
  };
}

/**
 * Marks the field of action data that holds the pattern a message is sent with, so that
 * `MessagePermissions` judges it, with the transport marked `@MessageTransportName()`, against
 * what the action's tenant may send, and refuses a pattern no transport carries as given (a space,
 * a line break, a wildcard). Its other schema rules (length) are the field's own.
 */
export function MessagePatternField(): PropertyDecorator {
  const shape = ValidateBy({
    name: 'messagePattern',
    validator: {
      validate: (value) => typeof value !== 'string' || messagePatternProblem(value) === null,
      defaultMessage: (args) => `${args?.property} ${messagePatternProblem(String(args?.value))}`,
    },
  });
  return (target, property) => {
    shape(target, property);
    Reflect.defineMetadata(PATTERNS, String(property), target.constructor);
  };
}

/** The fields of a data class marked `@MessageTransportName()`. */
export function messageTransportProperties(dataClass: Type): string[] {
  return (Reflect.getMetadata(TRANSPORT_NAMES, dataClass) as string[] | undefined) ?? [];
}

/** A message as action data describes it: its transport and pattern, and the fields that hold them. */
export interface DataMessage {
  transport: string;
  pattern: string;
  fields: { transport: string; pattern: string };
}

/** The message that valid `data` of a class marked `@MessagePatternField()` sends; null for any other class. */
export function messageOf(dataClass: Type, data: object): DataMessage | null {
  const patternField = Reflect.getMetadata(PATTERNS, dataClass) as string | undefined;
  if (patternField === undefined) return null;
  const values = data as Record<string, unknown>;
  const transportField = messageTransportProperties(dataClass)[0] ?? 'transport';
  const transport = values[transportField];
  return {
    transport: typeof transport === 'string' ? transport : DEFAULT_MESSAGE_TRANSPORT,
    pattern: String(values[patternField]),
    fields: { transport: transportField, pattern: patternField },
  };
}
