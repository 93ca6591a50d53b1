import { plainToInstance } from 'class-transformer';
import { ValidationError, validate } from 'class-validator';
import { DEFAULT_MESSAGE_TRANSPORT } from '@app/config';
import { EgressPolicy } from '@app/outbound';
import { ActionTypeDefinition, DataClass, outboundUrlProperties, parseHttpUrl } from '@punctual/sdk';
import { InvalidActionDataError, UnknownActionTypeError } from './data-validation.error';
import { messageOf, messageTransportProperties } from './message-transport.decorator';
import { keysLeftOut, transformSafeCopy } from './transform-safe-copy';

/** The action types this deployment knows, shared by the API (early validation) and the worker. */
export class ActionTypeRegistry {
  private readonly byType = new Map<string, ActionTypeDefinition>();

  /**
   * @param egress judges `@OutboundUrl()` fields; without one, every internal destination is refused.
   * @param transportNames the `MESSAGE_TRANSPORTS` names that `@MessageTransportName()` fields may hold.
   * @param mqttTransports those of them that are MQTT brokers, where a pattern is a topic.
   */
  constructor(
    definitions: readonly ActionTypeDefinition[],
    private readonly egress: EgressPolicy = new EgressPolicy(),
    private readonly transportNames: readonly string[] = [DEFAULT_MESSAGE_TRANSPORT],
    private readonly mqttTransports: readonly string[] = [],
  ) {
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
   * Checks `data` against the type's schema, and its `@OutboundUrl()` fields against the
   * egress policy. Returns the data as given (defaults are
   * applied by the fulfillment, so what the client stored is what it reads back).
   * @param path prefix for field names in messages, e.g. `items.3.data`.
   */
  async validateData(type: string, data: object, path = 'data'): Promise<void> {
    const { dataClass } = this.get(type);
    const instance = dataInstance(dataClass, data);
    const errors = await validate(instance, {
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
    });
    const leftOut = keysLeftOut(instance, data).map(
      ({ parent, key }) => `${[path, parent, key].filter(Boolean).join('.')}: property ${key} should not exist`,
    );
    const problems = [
      ...leftOut,
      ...errors.flatMap((e) => describe(e, path)),
      ...this.refusedDestinations(instance, errors, path),
      ...this.unknownTransports(dataClass, data, errors, path),
      ...this.mqttWildcards(dataClass, data, errors, path),
    ];
    if (problems.length > 0) throw new InvalidActionDataError(problems);
  }

  /** Transport names that this deployment does not configure: a MESSAGE action can reach no other. */
  private unknownTransports(dataClass: ActionTypeDefinition['dataClass'], data: object, errors: ValidationError[], path: string): string[] {
    return messageTransportProperties(dataClass).flatMap((property) => {
      const name = (data as Record<string, unknown>)[property];
      if (typeof name !== 'string' || errors.some((e) => e.property === property) || this.transportNames.includes(name)) return [];
      return [`${path}.${property}: transport "${name}" is not configured; MESSAGE_TRANSPORTS names ${[...this.transportNames].sort().join(', ')}`];
    });
  }

  /**
   * Patterns sent on an MQTT transport that hold `+` or `#`: MQTT's wildcards, which a topic to
   * publish on may not hold, while the reply is awaited on `<pattern>/reply`, a subscription that
   * would take in the replies of other topics. Other transports treat both as plain characters.
   */
  private mqttWildcards(dataClass: ActionTypeDefinition['dataClass'], data: object, errors: ValidationError[], path: string): string[] {
    const message = messageOf(dataClass, data);
    if (!message || !this.mqttTransports.includes(message.transport) || errors.some((e) => e.property === message.fields.pattern)) return [];
    if (!/[+#]/.test(message.pattern)) return [];
    return [
      `${path}.${message.fields.pattern}: "${message.pattern}" holds an MQTT wildcard (+ or #); transport "${message.transport}" publishes on the pattern as a topic`,
    ];
  }

  /**
   * Well-formed outbound URLs whose host the egress policy refuses without resolving it: the
   * `@OutboundUrl()` fields of the data class, and those of the nested schema classes (`@Type`) its
   * values are instances of, at any depth and in arrays, as the fulfillment will receive them.
   */
  private refusedDestinations(value: object, errors: readonly ValidationError[], path: string): string[] {
    const fields = value as Record<string, unknown>;
    const own = outboundUrlProperties(value.constructor as DataClass).flatMap((property) => {
      const text = fields[property];
      const url = errors.some((e) => e.property === property) || typeof text !== 'string' ? null : parseHttpUrl(text);
      const refusal = url && this.egress.refusalOfUrl(url);
      return refusal ? [`${path}.${property}: the destination is not allowed (${refusal})`] : [];
    });
    const nested = Object.keys(fields).flatMap((key) => {
      const child = fields[key];
      if (!holdsSchemaInstances(child)) return [];
      return this.refusedDestinations(child, errors.find((e) => e.property === key)?.children ?? [], `${path}.${key}`);
    });
    return [...own, ...nested];
  }
}

/**
 * `data` as an instance of its schema class, as validation sees it and as a fulfillment receives
 * it: nested schema classes (`@Type`) become instances, every other value stays as stored.
 */
export function dataInstance<TData extends object>(dataClass: DataClass<TData>, data: object): TData {
  return keepPlainValuesAsSent(plainToInstance(dataClass, transformSafeCopy(data)), data);
}

/**
 * Puts back the client's plain objects and arrays where class-transformer copied them (and, in
 * copying, dropped keys such as `toString`), so that a rule like "every header is a string" sees
 * every key. Values of a nested schema class (`@Type`) stay instances.
 */
function keepPlainValuesAsSent<T extends object>(instance: T, data: object): T {
  const sent = data as Record<string, unknown>;
  const target = instance as Record<string, unknown>;
  for (const key of Object.keys(target)) {
    if (isPlainCopy(target[key])) target[key] = sent[key];
  }
  return instance;
}

/** An instance of a nested schema class, or an array holding one: where `@OutboundUrl()` fields may be; plain JSON holds none. */
function holdsSchemaInstances(value: unknown): value is object {
  if (Array.isArray(value)) return value.some(holdsSchemaInstances);
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as object | null;
  return prototype !== Object.prototype && prototype !== null;
}

function isPlainCopy(value: unknown): boolean {
  if (Array.isArray(value)) return value.every((item) => typeof item !== 'object' || item === null || isPlainCopy(item));
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

function describe(error: ValidationError, parent: string): string[] {
  const path = `${parent}.${error.property}`;
  const own = Object.values(error.constraints ?? {}).map((message) => `${path}: ${message}`);
  return [...own, ...(error.children ?? []).flatMap((child) => describe(child, path))];
}
