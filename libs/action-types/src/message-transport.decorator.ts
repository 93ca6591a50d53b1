import 'reflect-metadata';
import { Type } from '@nestjs/common';
import { IsString } from 'class-validator';

const TRANSPORT_NAMES = 'punctual:message-transport-properties';

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

/** The fields of a data class marked `@MessageTransportName()`. */
export function messageTransportProperties(dataClass: Type): string[] {
  return (Reflect.getMetadata(TRANSPORT_NAMES, dataClass) as string[] | undefined) ?? [];
}
