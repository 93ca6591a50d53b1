import { signRequest } from '@app/signature';

export interface TestResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface RequestOptions {
  keyId?: string;
  secret?: string;
  headers?: Record<string, string>;
  /** Send these bytes as they are instead of JSON-encoding `body`. */
  rawBody?: string;
  /** Leave the signature headers off. */
  unsigned?: boolean;
}

export const TEST_KEY = { keyId: 'test-key', secret: 'test-secret-0123456789' };
export const ROTATED_KEY = { keyId: 'rotated-key', secret: 'rotated-secret-9876543210' };

/** Speaks signed HTTP to a running API, as a client would. */
export class SignedClient {
  constructor(readonly baseUrl: string) {}

  async request<T = any>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<TestResponse<T>> {
    const raw = options.rawBody ?? (body === undefined ? '' : JSON.stringify(body));
    const key = { keyId: options.keyId ?? TEST_KEY.keyId, secret: options.secret ?? TEST_KEY.secret };
    const signature = options.unsigned ? {} : signRequest({ ...key, method, pathWithQuery: path, body: raw });
    const response = await fetch(this.baseUrl + path, {
      method,
      headers: { ...(raw ? { 'content-type': 'application/json' } : {}), ...signature, ...options.headers },
      body: raw || undefined,
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
  }

  post<T = any>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('POST', path, body, options);
  }
  get<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('GET', path, undefined, options);
  }
  patch<T = any>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('PATCH', path, body, options);
  }
  delete<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('DELETE', path, undefined, options);
  }
}
