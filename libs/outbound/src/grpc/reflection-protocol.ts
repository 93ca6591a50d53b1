import { MethodDefinition, PackageDefinition, fromJSON } from '@grpc/proto-loader';

/** Both versions of the server reflection service that servers offer; v1alpha is what older servers know. */
export const REFLECTION_VERSIONS = ['v1', 'v1alpha'] as const;
export type ReflectionVersion = (typeof REFLECTION_VERSIONS)[number];

/** A package as protobuf.js JSON describes it, which proto-loader reads. */
type Namespace = Parameters<typeof fromJSON>[0];

/** The fields of `grpc.reflection.<version>` that a lookup by symbol uses; the decoder skips the others. */
const reflectionPackage: Namespace = {
  nested: {
    ServerReflection: {
      methods: {
        ServerReflectionInfo: {
          requestType: 'ServerReflectionRequest',
          requestStream: true,
          responseType: 'ServerReflectionResponse',
          responseStream: true,
          comment: '',
        },
      },
    },
    ServerReflectionRequest: { fields: { host: { type: 'string', id: 1 }, file_containing_symbol: { type: 'string', id: 4 } } },
    ServerReflectionResponse: {
      fields: { file_descriptor_response: { type: 'FileDescriptorResponse', id: 4 }, error_response: { type: 'ErrorResponse', id: 7 } },
    },
    FileDescriptorResponse: { fields: { file_descriptor_proto: { rule: 'repeated', type: 'bytes', id: 1 } } },
    ErrorResponse: { fields: { error_code: { type: 'int32', id: 1 }, error_message: { type: 'string', id: 2 } } },
  },
};

/**
 * `FileDescriptorSet` (`repeated FileDescriptorProto file = 1`) with each file kept as the bytes a
 * reflection answer carries: the same encoding. proto-loader makes encoders for methods only, hence
 * the method around it; it is never called.
 */
const descriptorSetPackage: Namespace = {
  nested: {
    FileSet: { fields: { file: { rule: 'repeated', type: 'bytes', id: 1 } } },
    Encoder: { methods: { Encode: { requestType: 'FileSet', responseType: 'FileSet', comment: '' } } },
  },
};

const definitions: PackageDefinition = fromJSON(
  {
    nested: {
      grpc: { nested: { reflection: { nested: { v1: reflectionPackage, v1alpha: reflectionPackage } } } },
      punctual: { nested: { descriptors: descriptorSetPackage } },
    },
  },
  { keepCase: true, defaults: false },
);

export interface ReflectionRequest {
  readonly host?: string;
  readonly file_containing_symbol: string;
}

export interface ReflectionResponse {
  readonly file_descriptor_response?: { readonly file_descriptor_proto?: Buffer[] };
  readonly error_response?: { readonly error_code?: number; readonly error_message?: string };
}

export interface ReflectionMethod {
  readonly path: string;
  readonly serialize: (request: ReflectionRequest) => Buffer;
  readonly deserialize: (bytes: Buffer) => ReflectionResponse;
}

/** The stream method of one version of the reflection service, with its encoder and decoder. */
export function reflectionMethod(version: ReflectionVersion): ReflectionMethod {
  const method = methodOf(`grpc.reflection.${version}.ServerReflection`, 'ServerReflectionInfo');
  return { path: method.path, serialize: method.requestSerialize, deserialize: method.responseDeserialize };
}

/** The files of a reflection answer as one `FileDescriptorSet`, as proto-loader reads it. */
export function descriptorSetOf(files: readonly Buffer[]): Buffer {
  return methodOf('punctual.descriptors.Encoder', 'Encode').requestSerialize({ file: files });
}

function methodOf(service: string, name: string) {
  return (definitions[service] as Record<string, MethodDefinition<object, object>>)[name];
}
