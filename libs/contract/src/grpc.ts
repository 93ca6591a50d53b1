import { join } from 'node:path';
import { RPC_PATTERNS, RpcPattern } from './rpc';

/** The gRPC service that carries every message pattern, as `punctual.proto` declares it. */
export const GRPC_PACKAGE = 'punctual.v1';
export const GRPC_SERVICE = `${GRPC_PACKAGE}.Punctual`;

/** `punctual.proto`, shipped beside the compiled contract (and in the client and server packages). */
export const GRPC_PROTO_FILE = join(__dirname, 'punctual.proto');

/** How both ends read `punctual.proto` with @grpc/proto-loader: an absent `body` is '' and absent `headers` {}, never undefined. */
export const GRPC_LOADER_OPTIONS = { keepCase: true, defaults: true, longs: String, enums: String, oneofs: true } as const;

type PatternKey = keyof typeof RPC_PATTERNS;
/** `createBatch` → `CreateBatch`. */
type MethodName<K extends string> = K extends `${infer First}${infer Rest}` ? `${Uppercase<First>}${Rest}` : K;
export type GrpcMethod = MethodName<PatternKey>;

/** The method of each pattern: its name in `RPC_PATTERNS`, capitalised (`Create`, `CreateBatch`, `PutCalendar`, …). */
export const GRPC_METHODS = Object.fromEntries(
  Object.entries(RPC_PATTERNS).map(([key, pattern]) => [key.charAt(0).toUpperCase() + key.slice(1), pattern]),
) as Readonly<Record<GrpcMethod, RpcPattern>>;

const METHOD_OF_PATTERN = new Map(Object.entries(GRPC_METHODS).map(([method, pattern]) => [pattern, method as GrpcMethod]));

/** The gRPC method that carries `pattern`. */
export function grpcMethodOf(pattern: RpcPattern): GrpcMethod {
  return METHOD_OF_PATTERN.get(pattern)!;
}

/** The gRPC status codes Punctual answers with (numbers as on the wire, so the contract needs no gRPC library). */
export const GRPC_STATUS = {
  OK: 0,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  UNAUTHENTICATED: 16,
} as const;

/**
 * The gRPC status of each HTTP status a refusal can have. 413 and 429 share RESOURCE_EXHAUSTED
 * (a quota's carries `retry-after` metadata); the JSON error in the status message keeps the exact HTTP status.
 */
const STATUS_OF_HTTP: Readonly<Record<number, number>> = {
  400: GRPC_STATUS.INVALID_ARGUMENT,
  401: GRPC_STATUS.UNAUTHENTICATED,
  403: GRPC_STATUS.PERMISSION_DENIED,
  404: GRPC_STATUS.NOT_FOUND,
  409: GRPC_STATUS.FAILED_PRECONDITION,
  413: GRPC_STATUS.RESOURCE_EXHAUSTED,
  // An Idempotency-Key already used with another body.
  422: GRPC_STATUS.ALREADY_EXISTS,
  429: GRPC_STATUS.RESOURCE_EXHAUSTED,
  500: GRPC_STATUS.INTERNAL,
  503: GRPC_STATUS.UNAVAILABLE,
};

/** The gRPC status that answers a refusal with `httpStatus`. */
export function grpcStatusOfHttp(httpStatus: number): number {
  return STATUS_OF_HTTP[httpStatus] ?? GRPC_STATUS.UNKNOWN;
}
