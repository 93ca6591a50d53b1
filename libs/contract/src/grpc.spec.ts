import { loadSync } from '@grpc/proto-loader';
import { GRPC_LOADER_OPTIONS, GRPC_METHODS, GRPC_PROTO_FILE, GRPC_SERVICE, GRPC_STATUS, grpcMethodOf, grpcStatusOfHttp } from './grpc';
import { RPC_PATTERNS } from './rpc';

describe('the gRPC service', () => {
  it('punctual.proto declares one unary method per message pattern, named after it, and nothing else', () => {
    const service = loadSync(GRPC_PROTO_FILE, GRPC_LOADER_OPTIONS)[GRPC_SERVICE] as Record<string, { requestStream: boolean; responseStream: boolean }>;
    expect(Object.keys(service).sort()).toEqual(Object.keys(GRPC_METHODS).sort());
    for (const method of Object.values(service)) expect(method).toMatchObject({ requestStream: false, responseStream: false });
    expect(Object.values(GRPC_METHODS).sort()).toEqual(Object.values(RPC_PATTERNS).sort());
    expect(GRPC_METHODS).toMatchObject({
      Create: 'punctual.actions.create',
      CreateBatch: 'punctual.actions.createBatch',
      PutCalendar: 'punctual.calendars.put',
    });
    for (const pattern of Object.values(RPC_PATTERNS)) expect(GRPC_METHODS[grpcMethodOf(pattern)]).toBe(pattern);
  });

  it('answers each refusal with the status of its HTTP code', () => {
    expect([400, 401, 404, 409, 413, 429, 503].map(grpcStatusOfHttp)).toEqual([
      GRPC_STATUS.INVALID_ARGUMENT,
      GRPC_STATUS.UNAUTHENTICATED,
      GRPC_STATUS.NOT_FOUND,
      GRPC_STATUS.FAILED_PRECONDITION,
      GRPC_STATUS.RESOURCE_EXHAUSTED,
      GRPC_STATUS.RESOURCE_EXHAUSTED,
      GRPC_STATUS.UNAVAILABLE,
    ]);
    expect(grpcStatusOfHttp(418)).toBe(GRPC_STATUS.UNKNOWN);
  });
});
