import { Client } from '@grpc/grpc-js';
import { MethodDefinition, PackageDefinition, loadSync } from '@grpc/proto-loader';
import { LRUCache } from 'lru-cache';
import { dirname } from 'node:path';
import { UnknownGrpcMethodError } from './grpc.errors';
import { LookupLimits, ReflectedService, reflectService } from './grpc-reflection';
import { GrpcTarget } from './grpc-target';
import { GRPC_LOAD_OPTIONS } from './proto-options';
import { requestTypeOf, unknownFieldsOf, withMapEntries } from './request-fields';

/** A unary method, found by name, with the encoder of its request and the decoder of its reply. */
export interface GrpcMethod {
  /** `/package.Service/Method` */
  readonly path: string;
  readonly serialize: (message: object) => Buffer;
  readonly deserialize: (bytes: Buffer) => object;
  /** The fields of a JSON message that the request type does not have, at any depth (`destination.town`). */
  readonly unknownFields: (message: object) => string[];
}

/** How long what a target told by reflection is reused before it is asked again (a redeployed server may change). */
const REFLECTED_TTL_MS = 60_000;
/** Descriptors kept at most, in bytes as received: targets choose their size, so the cache is bounded by it. */
const REFLECTED_MAX_BYTES = 32 * 1024 * 1024;

/**
 * Finds the method a GRPC action names: in the protos the deployment configures
 * (`GRPC_PROTO_PATHS`), else through the target's reflection service (kept a minute per target
 * and service). Rejects with `UnknownGrpcMethodError` naming the service or method the target
 * does not serve, or a method that is not unary.
 */
export class GrpcMethods {
  private readonly configured: PackageDefinition;
  private readonly reflected = new LRUCache<string, ReflectedService>({
    max: 1000,
    ttl: REFLECTED_TTL_MS,
    maxSize: REFLECTED_MAX_BYTES,
    sizeCalculation: (reflected) => Math.max(1, reflected.bytes),
  });

  constructor(protoPaths: readonly string[]) {
    this.configured =
      protoPaths.length === 0 ? {} : loadSync([...protoPaths], { ...GRPC_LOAD_OPTIONS, includeDirs: [...new Set(protoPaths.map(dirname))] });
  }

  /** @param client a channel to the target, asked when the configured protos do not name the service. */
  async resolve(client: Client, target: GrpcTarget, tls: boolean, service: string, method: string, limits: LookupLimits): Promise<GrpcMethod> {
    const cacheKey = `${tls ? 'tls' : 'plain'}|${target.text}|${service}`;
    if (Object.hasOwn(this.configured, service)) return methodIn(this.configured, service, method, 'configured');
    return methodIn(await this.reflect(client, cacheKey, service, limits), service, method, 'reflected');
  }

  private async reflect(client: Client, cacheKey: string, service: string, limits: LookupLimits): Promise<PackageDefinition> {
    const known = this.reflected.get(cacheKey);
    if (known) return known.definitions;
    const reflected = await reflectService(client, service, limits);
    this.reflected.set(cacheKey, reflected);
    return reflected.definitions;
  }
}

/** `source`: reflected definitions take maps as lists of entries, so a message's maps are written so before it is encoded. */
function methodIn(definitions: PackageDefinition, service: string, method: string, source: 'configured' | 'reflected'): GrpcMethod {
  const methods = definitions[service] as Record<string, MethodDefinition<object, object>> | undefined;
  // Reflection answers with the file that declares a symbol: that symbol may be a message, not a service.
  if (!methods || typeof methods !== 'object' || 'format' in methods)
    throw new UnknownGrpcMethodError('service', `service ${service} is not served by the target`);
  const definition = Object.hasOwn(methods, method) ? methods[method] : undefined;
  if (!definition) throw new UnknownGrpcMethodError('method', `service ${service} has no method ${method}`);
  if (definition.requestStream || definition.responseStream)
    throw new UnknownGrpcMethodError('method', `${service}/${method} is a streaming method; only unary methods are called`);
  const requestType = () => requestTypeOf(definition.requestType.fileDescriptorProtos, service, method);
  return {
    path: definition.path,
    serialize: source === 'reflected' ? (message) => definition.requestSerialize(withMapEntries(requestType(), message)) : definition.requestSerialize,
    deserialize: definition.responseDeserialize,
    unknownFields: (message) => unknownFieldsOf(requestType(), message),
  };
}
