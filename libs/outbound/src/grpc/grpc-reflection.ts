import { Client, Metadata, ServiceError, status } from '@grpc/grpc-js';
import { PackageDefinition, loadFileDescriptorSetFromBuffer } from '@grpc/proto-loader';
import { checkDescriptorBudget } from './descriptor-budget';
import { GrpcReflectionUnavailableError, GrpcStatusError, UnknownGrpcMethodError } from './grpc.errors';
import { GRPC_LOAD_OPTIONS } from './proto-options';
import { REFLECTION_VERSIONS, ReflectionResponse, ReflectionVersion, descriptorSetOf, reflectionMethod } from './reflection-protocol';

/** What a lookup is bounded by: its deadline and the caller's signal. */
export interface LookupLimits {
  readonly deadline: Date;
  readonly signal?: AbortSignal;
}

/** What a target's reflection service told of a service, and the size of the descriptors it took. */
export interface ReflectedService {
  readonly definitions: PackageDefinition;
  readonly bytes: number;
}

/**
 * The definitions of `service` as the target's reflection service describes them: the file that
 * declares it and the files it imports. Asks `grpc.reflection.v1`, then `v1alpha` on servers that
 * know only that one. Rejects with `UnknownGrpcMethodError` when the server does not know the
 * service or describes it beyond `checkDescriptorBudget`, `GrpcReflectionUnavailableError` when it
 * has no reflection service, or the call's status.
 */
export async function reflectService(client: Client, service: string, limits: LookupLimits): Promise<ReflectedService> {
  for (const version of REFLECTION_VERSIONS) {
    let response: ReflectionResponse;
    try {
      response = await fileContainingSymbol(client, version, service, limits);
    } catch (error) {
      if ((error as ServiceError).code === status.UNIMPLEMENTED) continue;
      const { code, details } = error as ServiceError;
      throw new GrpcStatusError(code ?? status.UNKNOWN, details ?? '');
    }
    if (response.error_response) {
      if (response.error_response.error_code === status.NOT_FOUND)
        throw new UnknownGrpcMethodError('service', `service ${service} is not served by the target`);
      throw new GrpcStatusError(response.error_response.error_code ?? status.UNKNOWN, response.error_response.error_message ?? '');
    }
    const files = response.file_descriptor_response?.file_descriptor_proto ?? [];
    checkDescriptorBudget(service, files);
    const descriptorSet = descriptorSetOf(files);
    return { definitions: loadFileDescriptorSetFromBuffer(descriptorSet, GRPC_LOAD_OPTIONS), bytes: descriptorSet.length };
  }
  throw new GrpcReflectionUnavailableError('has no reflection service');
}

/** One request on the reflection stream, and its one answer. */
function fileContainingSymbol(client: Client, version: ReflectionVersion, symbol: string, limits: LookupLimits): Promise<ReflectionResponse> {
  const method = reflectionMethod(version);
  return new Promise((resolve, reject) => {
    const call = client.makeBidiStreamRequest(method.path, method.serialize, method.deserialize, new Metadata(), { deadline: limits.deadline });
    const onAbort = () => call.cancel();
    limits.signal?.addEventListener('abort', onAbort, { once: true });
    let answered = false;
    const done = () => limits.signal?.removeEventListener('abort', onAbort);
    call.on('data', (response: ReflectionResponse) => {
      answered = true;
      done();
      resolve(response);
      call.cancel();
    });
    call.on('error', (error: ServiceError) => {
      done();
      if (!answered) reject(error);
    });
    call.on('end', () => {
      done();
      if (!answered) reject(Object.assign(new Error('no answer'), { code: status.UNAVAILABLE, details: 'the reflection service did not answer' }));
    });
    call.write({ file_containing_symbol: symbol });
    call.end();
  });
}
