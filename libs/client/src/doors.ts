import { RpcPattern } from '@punctual/contract';
import { SignedHttp } from './http/signed-http';
import { SignedGrpc } from './grpc/signed-grpc';
import { PunctualError, asErrorBody } from './punctual-error';
import { SignedRpc } from './rpc/signed-rpc';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One call, in the form each door takes: an HTTP route with its body, or a message pattern (also gRPC's method) with its body. */
export interface Call {
  http: { method: HttpMethod; path: string; body?: unknown };
  rpc: { pattern: RpcPattern; body: unknown };
  idempotencyKey?: string;
}

/**
 * How a call reaches Punctual, over HTTP or a NestJS transport: each method of the client describes
 * its call once, for both. The answer is the success body, a refusal is thrown as `PunctualError`.
 */
export interface Door {
  call<T>(call: Call): Promise<T>;
  close(): Promise<void>;
}

/** HTTP: the route, with an `Idempotency-Key` header when the call has one; 204 answers null. */
export class HttpDoor implements Door {
  constructor(private readonly http: SignedHttp) {}

  call<T>({ http: { method, path, body }, idempotencyKey }: Call): Promise<T> {
    return this.send(method, path, body, idempotencyKey === undefined ? undefined : { 'Idempotency-Key': idempotencyKey });
  }

  async send<T>(method: HttpMethod, path: string, body?: unknown, headers?: Record<string, string>): Promise<T> {
    const answer = await this.http.request<unknown>(method, path, body, { headers });
    if (answer.status >= 400) {
      const retryAfter = answer.headers.get('retry-after');
      throw new PunctualError(
        asErrorBody(answer.body) ?? { statusCode: answer.status, error: 'Error', message: `HTTP ${answer.status}` },
        retryAfter === null ? undefined : Number(retryAfter),
      );
    }
    return (answer.status === 204 ? null : answer.body) as T;
  }

  async close(): Promise<void> {}
}

/** A NestJS transport: the message pattern, with the `Idempotency-Key` as a message header. */
export class RpcDoor implements Door {
  constructor(private readonly rpc: SignedRpc) {}

  call<T>({ rpc: { pattern, body }, idempotencyKey }: Call): Promise<T> {
    return this.rpc.send<T>(pattern, body, { headers: idempotencyKey === undefined ? undefined : { 'Idempotency-Key': idempotencyKey } });
  }

  close(): Promise<void> {
    return this.rpc.close();
  }
}

/** gRPC: the method of the message pattern, with the `Idempotency-Key` as a message header, signed as over a NestJS transport. */
export class GrpcDoor implements Door {
  constructor(private readonly grpc: SignedGrpc) {}

  call<T>({ rpc: { pattern, body }, idempotencyKey }: Call): Promise<T> {
    return this.grpc.send<T>(pattern, body, { headers: idempotencyKey === undefined ? undefined : { 'Idempotency-Key': idempotencyKey } });
  }

  close(): Promise<void> {
    return this.grpc.close();
  }
}

type Query = Record<string, string | number | undefined>;

/** `?a=1&b=x` from the defined values, or '' when there are none. */
export function queryString(params: Query): string {
  const defined = Object.entries(params).filter((entry): entry is [string, string | number] => entry[1] !== undefined);
  return defined.length === 0 ? '' : `?${new URLSearchParams(defined.map(([key, value]) => [key, String(value)])).toString()}`;
}
