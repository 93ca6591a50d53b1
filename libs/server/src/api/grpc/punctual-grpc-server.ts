import { Metadata, Server, ServerCredentials, ServiceError } from '@grpc/grpc-js';
import { MessageHandler, ServerGrpc } from '@nestjs/microservices';
import { Observable, catchError, map, throwError } from 'rxjs';
import {
  ErrorBody,
  GRPC_LOADER_OPTIONS,
  GRPC_METHODS,
  GRPC_PACKAGE,
  GRPC_PROTO_FILE,
  GRPC_SERVICE,
  GrpcMethod,
  grpcStatusOfHttp,
} from '@punctual/contract';
import { Reader } from 'protobufjs';
import { tooManyHeadersProblem } from '@app/signature';
import { retryAfterOf } from '../rpc/rpc-error.filter';
import { BATCH_BODY_LIMIT_BYTES } from '../input/limits';

/**
 * The largest message accepted: the largest body (a batch's) and room for the headers, as much as
 * Node lets an HTTP request's headers take. A larger one is refused with RESOURCE_EXHAUSTED unread.
 */
export const GRPC_MAX_MESSAGE_BYTES = BATCH_BODY_LIMIT_BYTES + 16 * 1024;
/** How long a stopping API lets calls in flight finish before it drops their connections. */
const SHUTDOWN_GRACE_MS = 5000;

/** What a request that is not a `punctual.v1.Request` decodes to: refused before any handler runs. */
const UNDECODABLE = Object.freeze({});

/** What a request with more headers than a message may carry decodes to, unread: refused before any handler runs. */
class TooManyHeaders {
  constructor(readonly count: number) {}
}

type ServiceMethods = Record<string, { requestDeserialize: (bytes: Buffer) => unknown }>;

/**
 * NestJS's gRPC server, serving `punctual.v1.Punctual` with the handlers of the message patterns:
 * each method runs the handler its pattern names (`Create` → `punctual.actions.create`), with the
 * same guard, pipes and filter as on the NestJS transport, so the message is signed for the pattern
 * and checked by the same code. Only the edges are gRPC's: the reply is the handler's answer as JSON
 * text, and a refusal the status of its HTTP code with the JSON error as the message.
 */
export class PunctualGrpcServer extends ServerGrpc {
  constructor(address: string, credentials: ServerCredentials) {
    super({
      url: address,
      package: GRPC_PACKAGE,
      protoPath: GRPC_PROTO_FILE,
      loader: GRPC_LOADER_OPTIONS,
      credentials,
      maxReceiveMessageLength: GRPC_MAX_MESSAGE_BYTES,
      onLoadPackageDefinition: (definition: Record<string, unknown>) => decodeLeniently(definition[GRPC_SERVICE] as ServiceMethods),
    });
  }

  override getMessageHandler(_service: string, methodName: string): MessageHandler {
    const pattern = GRPC_METHODS[methodName as GrpcMethod] as string | undefined;
    // Nest calls a handler of the gRPC transport with (request, metadata, call).
    const handler = (pattern === undefined ? undefined : this.messageHandlers.get(pattern)) as ((...args: unknown[]) => unknown) | undefined;
    // No handler: grpc-js answers the method UNIMPLEMENTED.
    if (!handler) return undefined as unknown as MessageHandler;
    return (async (request: unknown, metadata: unknown, call: unknown): Promise<Observable<{ json: string }>> => {
      if (request === UNDECODABLE)
        return throwError(() => statusError({ statusCode: 400, error: 'Bad Request', message: 'The message is not a punctual.v1.Request' }));
      if (request instanceof TooManyHeaders)
        return throwError(() => statusError({ statusCode: 401, error: 'Unauthorized', message: tooManyHeadersProblem(request.count)! }));
      return this.transformToObservable(await handler(request, metadata, call)).pipe(
        map((answer) => ({ json: JSON.stringify(answer) })),
        catchError((error: unknown) => throwError(() => statusError(error))),
      );
    }) as MessageHandler;
  }

  /** Lets calls in flight finish, for a while, then drops what is left so that shutdown always ends. */
  override async close(): Promise<void> {
    const server = this.grpcClient as Server | null;
    if (!server) return;
    let timer: NodeJS.Timeout | undefined;
    const graceful = new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, SHUTDOWN_GRACE_MS)));
    await Promise.race([graceful, late]);
    clearTimeout(timer);
    server.forceShutdown();
    this.grpcClient = null;
  }
}

/**
 * A request whose bytes protobuf cannot read reaches the handler as UNDECODABLE, rather than
 * grpc-js's INTERNAL; one with more headers than a message may carry as TooManyHeaders, counted
 * on the wire without decoding them: a megabyte of tiny headers takes a tenth of a second to decode.
 */
function decodeLeniently(methods: ServiceMethods): void {
  for (const method of Object.values(methods)) {
    const decode = method.requestDeserialize;
    method.requestDeserialize = (bytes) => {
      try {
        const headers = headerEntries(bytes);
        return tooManyHeadersProblem(headers) ? new TooManyHeaders(headers) : decode(bytes);
      } catch {
        return UNDECODABLE;
      }
    };
  }
}

/** How many entries of `headers` (field 1) a `punctual.v1.Request`'s bytes hold; throws on bytes that are no protobuf message. */
function headerEntries(bytes: Buffer): number {
  const reader = Reader.create(bytes);
  let count = 0;
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    if (tag >>> 3 === 1) count += 1;
    reader.skipType(tag & 7);
  }
  return count;
}

/** The status answering an error body (what `RpcErrorFilter` throws): its HTTP code's, the body as the message, `retry-after` for a quota. */
function statusError(error: unknown): Partial<ServiceError> {
  const body = isErrorBody(error) ? error : { statusCode: 500, error: 'Internal Server Error', message: 'Internal server error' };
  const metadata = new Metadata();
  const retryAfter = retryAfterOf(error);
  if (retryAfter !== undefined) metadata.set('retry-after', String(retryAfter));
  return { code: grpcStatusOfHttp(body.statusCode), details: JSON.stringify(body), metadata };
}

function isErrorBody(value: unknown): value is ErrorBody {
  return (
    typeof value === 'object' && value !== null && typeof (value as ErrorBody).statusCode === 'number' && typeof (value as ErrorBody).error === 'string'
  );
}
