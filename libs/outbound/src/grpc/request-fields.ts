import { Field, Root, Type } from 'protobufjs';
import { FileDescriptorProto, IFileDescriptorProto, IFileDescriptorSet } from 'protobufjs/ext/descriptor';

/** Added to `Root` by importing `protobufjs/ext/descriptor`, which its typings do not say. */
const Roots = Root as unknown as { fromDescriptor(set: IFileDescriptorSet): Root };

/**
 * The types every method of one set of proto files refers to, built once per set: proto-loader
 * gives each method the files its definitions came from, not the types themselves.
 */
const roots = new WeakMap<readonly Buffer[], Root>();

/**
 * The request type of `service`/`method` among the proto files a method definition was loaded
 * from (`requestType.fileDescriptorProtos`), to tell which fields of a JSON message it has.
 */
export function requestTypeOf(files: readonly Buffer[], service: string, method: string): Type {
  let root = roots.get(files);
  if (!root) {
    root = Roots.fromDescriptor({ file: files.map((bytes) => FileDescriptorProto.decode(bytes) as IFileDescriptorProto) });
    roots.set(files, root);
  }
  const found = root.lookupService(service).methods[method];
  found.resolve();
  return found.resolvedRequestType!;
}

/**
 * The fields of `message` (as JSON, names spelled as the proto declares them) that `type` does not
 * have, at any depth, as paths (`destination.town`, `stops[1].town`, `labels.home.town`):
 * protobuf would drop them unsent, so a misspelt field would go unnoticed. The inside of
 * `google.protobuf` types (`Struct`, `Any`, `Timestamp`…) is not judged: their JSON forms are not their fields.
 */
export function unknownFieldsOf(type: Type, message: object, path = ''): string[] {
  const unknown: string[] = [];
  for (const [name, value] of Object.entries(message as Record<string, unknown>)) {
    const field = Object.hasOwn(type.fields, name) ? type.fields[name] : undefined;
    const at = `${path}${name}`;
    if (!field) {
      unknown.push(at);
      continue;
    }
    const inner = judgedType(field);
    if (!inner) continue;
    // A map arrives from a descriptor as a repeated entry type: as JSON, an object of values or a list of { key, value }.
    if (inner.options?.map_entry === true && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const valueType = judgedType(inner.fields['value']);
      if (valueType) for (const [key, entry] of Object.entries(value)) unknown.push(...messageFields(valueType, entry, `${at}.${key}`));
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => unknown.push(...messageFields(inner, item, `${at}[${index}]`)));
    } else {
      unknown.push(...messageFields(inner, value, at));
    }
  }
  return unknown;
}

/** The message type of a field whose fields are judged: null for a scalar, an enum or a `google.protobuf` type. */
function judgedType(field: Field): Type | null {
  const type = field.resolve().resolvedType;
  return type instanceof Type && !type.fullName.startsWith('.google.protobuf.') ? type : null;
}

/** The unknown fields of a value that should be a message; a value of another kind is protobuf's to refuse. */
function messageFields(type: Type, value: unknown, path: string): string[] {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? unknownFieldsOf(type, value, `${path}.`) : [];
}

/**
 * `message` with each map written as proto3 JSON writes it (an object of values) turned into the
 * list of `{ key, value }` entries a type built from descriptors expects: reflection describes a
 * map as a repeated entry type, and protobuf.js does not make it a map again. Lists of entries, and
 * every other value, pass as they are.
 */
export function withMapEntries(type: Type, message: object): object {
  const written: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(message as Record<string, unknown>)) {
    const field = Object.hasOwn(type.fields, name) ? type.fields[name] : undefined;
    const inner = field ? judgedType(field) : null;
    written[name] = inner ? fieldWithMapEntries(inner, value) : value;
  }
  return written;
}

function fieldWithMapEntries(type: Type, value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (type.options?.map_entry !== true) {
    return Array.isArray(value) ? value.map((item) => fieldWithMapEntries(type, item)) : withMapEntries(type, value);
  }
  if (Array.isArray(value)) return value;
  const valueType = judgedType(type.fields['value']);
  return Object.entries(value as Record<string, unknown>).map(([key, entry]) => ({
    key,
    value: valueType ? fieldWithMapEntries(valueType, entry) : entry,
  }));
}
