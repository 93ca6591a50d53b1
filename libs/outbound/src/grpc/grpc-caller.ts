import { Client, Metadata, ServiceError, status } from '@grpc/grpc-js';
import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { PunctualConfig } from '@app/config';
import { HostResolver } from '../client/host-resolver';
import { InvalidOutboundRequestError, OutboundAbortedError, OutboundError, OutboundTimeoutError } from '../client/outbound.errors';
import { AllowedAddresses } from '../egress/allowed-addresses';
import { EgressPolicy } from '../egress/egress-policy';
import { GrpcChannels } from './grpc-channels';
import { GrpcStatusError } from './grpc.errors';
import { GrpcMethod, GrpcMethods } from './grpc-methods';
import { GrpcTarget, parseGrpcTarget } from './grpc-target';
import { grpcRootCertificates } from './grpc-tls';

export interface GrpcCall {
  /** `host:port` */
  readonly target: string;
  /** `package.Service` */
  readonly service: string;
  readonly method: string;
  readonly tls: boolean;
  /** The whole call, the lookup of the method included. */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

export interface GrpcUnaryCall extends GrpcCall {
  /** The request as JSON, field names as the proto spells them. */
  readonly message: object;
  readonly metadata: Readonly<Record<string, string>>;
}

/**
 * The one way Punctual calls a gRPC method: on a channel to an address the egress policy allows,
 * with the method found in the configured protos or by the target's reflection service. Rejects
 * with an `OutboundError`: `DestinationNotAllowedError`, `UnknownGrpcMethodError`,
 * `GrpcReflectionUnavailableError`, `GrpcStatusError` (any status but OK), a timeout or an abort.
 */
@Injectable()
export class GrpcCaller implements OnApplicationShutdown {
  private readonly channels: GrpcChannels;
  private readonly methods: GrpcMethods;

  constructor(policy: EgressPolicy, resolver: HostResolver, config: PunctualConfig) {
    const { grpcCaFile, grpcProtoPaths } = config.outbound;
    let roots: Buffer | undefined;
    this.channels = new GrpcChannels(policy, new AllowedAddresses(policy, resolver), () => (roots ??= grpcRootCertificates(grpcCaFile)));
    this.methods = new GrpcMethods(grpcProtoPaths);
  }

  /** Finds the method the call names, without calling it. */
  async lookUp(call: GrpcCall): Promise<GrpcMethod> {
    const target = targetOf(call.target);
    return this.bounded(call, (deadline) => this.channels.use(target, call.tls, (client) => this.method(client, target, call, deadline)));
  }

  /** Calls a unary method; resolves with its reply as JSON. */
  async call(call: GrpcUnaryCall): Promise<object> {
    const target = targetOf(call.target);
    return this.bounded(call, (deadline) =>
      this.channels.use(target, call.tls, async (client) => {
        const method = await this.method(client, target, call, deadline);
        let request: Buffer;
        try {
          request = method.serialize(call.message);
        } catch (error) {
          throw new InvalidOutboundRequestError(
            `the message does not fit the request type of ${call.service}/${call.method} (${(error as Error).message})`,
          );
        }
        return unary(client, method, request, call, deadline);
      }),
    );
  }

  onApplicationShutdown(): void {
    this.channels.close();
  }

  private method(client: Client, target: GrpcTarget, call: GrpcCall, deadline: Date): Promise<GrpcMethod> {
    return this.methods.resolve(client, target, call.tls, call.service, call.method, { deadline, signal: call.signal });
  }

  /**
   * Runs `work` until its deadline, and turns a deadline passed or the signal into their own errors.
   * gRPC bounds the calls by the deadline; the timer bounds what comes before them too (finding the
   * address: a name server that never answers would otherwise hold the caller for as long as DNS tries).
   */
  private async bounded<T>(call: GrpcCall, work: (deadline: Date) => Promise<T>): Promise<T> {
    if (call.signal?.aborted) throw new OutboundAbortedError();
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const cut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new OutboundTimeoutError(call.timeoutMs)), call.timeoutMs);
      onAbort = () => reject(new OutboundAbortedError());
      call.signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([work(new Date(Date.now() + call.timeoutMs)), cut]);
    } catch (error) {
      if (call.signal?.aborted) throw new OutboundAbortedError();
      if (error instanceof GrpcStatusError && error.code === status.DEADLINE_EXCEEDED) throw new OutboundTimeoutError(call.timeoutMs);
      if (error instanceof OutboundError) throw error;
      // DNS and socket errors: the code only, Node's messages name the address.
      throw new OutboundError(`failed: ${(error as NodeJS.ErrnoException).code ?? 'no answer'}`);
    } finally {
      clearTimeout(timer);
      call.signal?.removeEventListener('abort', onAbort!);
    }
  }
}

function targetOf(text: string): GrpcTarget {
  const target = parseGrpcTarget(text);
  if (!target) throw new InvalidOutboundRequestError('the target is not host:port');
  return target;
}

function unary(client: Client, method: GrpcMethod, request: Buffer, call: GrpcUnaryCall, deadline: Date): Promise<object> {
  const metadata = new Metadata();
  for (const [name, value] of Object.entries(call.metadata)) metadata.set(name, value);
  // Cancelled while the address or the method was being found: the timer let the attempt go, the call is not sent.
  if (call.signal?.aborted) return Promise.reject(new OutboundAbortedError());
  return new Promise((resolve, reject) => {
    const onAbort = () => pending.cancel();
    const pending = client.makeUnaryRequest(
      method.path,
      (bytes: Buffer) => bytes,
      method.deserialize,
      request,
      metadata,
      { deadline },
      (error: ServiceError | null, reply?: object) => {
        call.signal?.removeEventListener('abort', onAbort);
        if (error) reject(new GrpcStatusError(error.code, error.details));
        else resolve(reply ?? {});
      },
    );
    call.signal?.addEventListener('abort', onAbort, { once: true });
  });
}
