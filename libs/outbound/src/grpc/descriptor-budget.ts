import { FileDescriptorProto, IDescriptorProto, IFileDescriptorProto } from 'protobufjs/ext/descriptor';
import { UnknownGrpcMethodError } from './grpc.errors';

/**
 * The most types (messages, nested ones included, and enums) and fields a target's reflection
 * service may describe for one service. Building the definitions of a descriptor set holds the
 * event loop about 2 ms per 50 types, and a target chooses what it answers: within these a lookup
 * costs tens of milliseconds, while a real service with its imports (google/protobuf's among them)
 * has a few hundred types at most. A larger one is listed in GRPC_PROTO_PATHS instead.
 */
export const REFLECTED_MAX_TYPES = 1_000;
export const REFLECTED_MAX_FIELDS = 10_000;

/**
 * Refuses `service`'s reflected files (serialized FileDescriptorProtos) when they describe more
 * than the budget, before they are built: decoding them alone is cheap, about 25 ms a MiB.
 */
export function checkDescriptorBudget(service: string, files: readonly Buffer[]): void {
  let types = 0;
  let fields = 0;
  const count = (messages: readonly IDescriptorProto[] | null | undefined) => {
    for (const message of messages ?? []) {
      types += 1 + (message.enumType?.length ?? 0);
      fields += message.field?.length ?? 0;
      count(message.nestedType);
    }
  };
  for (const bytes of files) {
    const file = FileDescriptorProto.decode(bytes) as IFileDescriptorProto;
    types += file.enumType?.length ?? 0;
    count(file.messageType);
  }
  if (types > REFLECTED_MAX_TYPES || fields > REFLECTED_MAX_FIELDS) {
    throw new UnknownGrpcMethodError(
      'service',
      `the target's reflection service describes ${service} with ${types} types and ${fields} fields, more than the ${REFLECTED_MAX_TYPES} types ` +
        `and ${REFLECTED_MAX_FIELDS} fields read from a target; list its protos in GRPC_PROTO_PATHS instead`,
    );
  }
}
