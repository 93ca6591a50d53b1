import { ChannelCredentials, Client, Metadata, ServiceClientConstructor, ServiceError, credentials, loadPackageDefinition, status } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { GRPC_LOADER_OPTIONS, GRPC_PROTO_FILE, GRPC_SERVICE, RpcMessage, RpcPattern, grpcMethodOf } from '@punctual/contract';
import { PunctualError, PunctualTimeoutError, asErrorBody } from '../punctual-error';
import { RpcSendOptions, rpcMessage } from '../rpc/signed-rpc';

const DEFAULT_TIMEOUT_MS = 10_000;

export interface SignedGrpcOptions {
  /** `host:port` of an API's gRPC service (`GRPC_URL`), or of the load balancer in front of several. */
  address: string;
  keyId: string;
  secret: string;
  /** TLS: `true` trusts the system's root certificates, `{ ca }` the given PEM certificate(s). Default: plaintext. */
  tls?: boolean | { ca: Buffer };
  /** How long a call may take; then it fails with `PunctualTimeoutError`. Default 10 s. */
  timeoutMs?: number;
}

type Unary = (
  message: RpcMessage,
  metadata: Metadata,
  options: { deadline: number },
  done: (error: ServiceError | null, reply?: { json: string }) => void,
) => void;

/** What an error without Punctual's JSON body (grpc-js's own: too large, unreachable, unknown method) is, in HTTP terms. */
const HTTP_OF_STATUS: Partial<Record<status, [number, string]>> = {
  [status.INVALID_ARGUMENT]: [400, 'Bad Request'],
  [status.UNAUTHENTICATED]: [401, 'Unauthorized'],
  [status.PERMISSION_DENIED]: [403, 'Forbidden'],
  [status.NOT_FOUND]: [404, 'Not Found'],
  [status.FAILED_PRECONDITION]: [409, 'Conflict'],
  [status.RESOURCE_EXHAUSTED]: [413, 'Payload Too Large'],
  [status.UNIMPLEMENTED]: [501, 'Not Implemented'],
  [status.UNAVAILABLE]: [503, 'Service Unavailable'],
};

/**
 * Signed calls to the API's gRPC service `punctual.v1.Punctual`: the message of each pattern,
 * signed exactly as over a NestJS transport (METHOD `RPC`, PATH the pattern), sent to the method
 * named after it. A refusal is a `PunctualError` with the status its HTTP twin would answer.
 */
export class SignedGrpc {
  private readonly client: Client;

  constructor(private readonly options: SignedGrpcOptions) {
    const definition = loadPackageDefinition(loadSync(GRPC_PROTO_FILE, GRPC_LOADER_OPTIONS));
    const Service = GRPC_SERVICE.split('.').reduce<unknown>(
      (node, name) => (node as Record<string, unknown>)[name],
      definition,
    ) as ServiceClientConstructor;
    this.client = new Service(options.address, channelCredentials(options.tls));
  }

  /** The signed message for `body` on `pattern`, as `send` puts it on the wire. */
  message(pattern: string, body: unknown, options: RpcSendOptions = {}): RpcMessage {
    return rpcMessage(this.options, pattern, body, options);
  }

  send<T>(pattern: RpcPattern, body: unknown, options: RpcSendOptions = {}): Promise<T> {
    return this.sendMessage<T>(pattern, this.message(pattern, body, options));
  }

  /** Sends a message as it is (a replayed or tampered one, in tests) to the method of `pattern`. */
  sendMessage<T>(pattern: RpcPattern, message: RpcMessage): Promise<T> {
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const method = (this.client as unknown as Record<string, Unary>)[grpcMethodOf(pattern)].bind(this.client);
    return new Promise<T>((resolve, reject) => {
      method(message, new Metadata(), { deadline: Date.now() + timeoutMs }, (error, reply) => {
        if (error) reject(refusal(error, pattern, timeoutMs));
        else resolve(JSON.parse(reply!.json) as T);
      });
    });
  }

  async close(): Promise<void> {
    this.client.close();
  }
}

function channelCredentials(tls: SignedGrpcOptions['tls']): ChannelCredentials {
  if (!tls) return credentials.createInsecure();
  return credentials.createSsl(tls === true ? null : tls.ca);
}

/** The `PunctualError` of a failed call: the JSON error the API sent as the status message, or one made from the status alone. */
function refusal(error: ServiceError, pattern: string, timeoutMs: number): PunctualError {
  if (error.code === status.DEADLINE_EXCEEDED) return new PunctualTimeoutError(pattern, timeoutMs);
  const retryAfter = error.metadata?.get('retry-after')[0];
  const body = asErrorBody(parsed(error.details)) ?? fromStatus(error);
  return new PunctualError(body, retryAfter === undefined ? undefined : Number(retryAfter));
}

function fromStatus(error: ServiceError): { statusCode: number; error: string; message: string } {
  const [statusCode, label] = HTTP_OF_STATUS[error.code] ?? [502, 'Bad Gateway'];
  return { statusCode, error: label, message: `gRPC ${status[error.code]}: ${error.details}` };
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
