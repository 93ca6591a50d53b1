import { signRequest } from '@punctual/contract';

/** One answer of the HTTP API, as it came: status, headers and parsed JSON body (undefined when empty). */
export interface HttpExchange<Body> {
  status: number;
  headers: Headers;
  body: Body;
}

export interface HttpRequestOptions {
  /** Sign with another key than the client's. */
  keyId?: string;
  secret?: string;
  /** More headers, e.g. `Idempotency-Key`; they win over the client's own. */
  headers?: Record<string, string>;
  /** Send these bytes as they are instead of JSON-encoding the body. */
  rawBody?: string;
  /** Leave the signature headers off. */
  unsigned?: boolean;
}

export interface SignedHttpOptions {
  /** e.g. `http://localhost:3000` */
  baseUrl: string;
  keyId: string;
  secret: string;
}

/**
 * Signed requests to the HTTP API that hand back the raw exchange (status, headers such as
 * `Link`, and the body) without judging it. `PunctualClient` builds its typed calls on it; use it
 * directly to see what the typed calls hide, such as 200 versus 201 for a repeated create.
 * `Body` is the type the answers' bodies are read as (`unknown` unless a caller chooses).
 */
export class SignedHttp<Body = unknown> {
  constructor(private readonly options: SignedHttpOptions) {}

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  /** The four signature headers for one request whose body is exactly `rawBody` (fresh nonce, current time). */
  signatureHeaders(method: string, pathWithQuery: string, rawBody = '', key: { keyId?: string; secret?: string } = {}): Record<string, string> {
    return signRequest({ keyId: key.keyId ?? this.options.keyId, secret: key.secret ?? this.options.secret, method, pathWithQuery, body: rawBody });
  }

  /** Signs the exact text sent: the JSON of `body`, or `options.rawBody`. */
  async request<T = Body>(method: string, pathWithQuery: string, body?: unknown, options: HttpRequestOptions = {}): Promise<HttpExchange<T>> {
    const raw = options.rawBody ?? (body === undefined ? '' : JSON.stringify(body));
    const signature = options.unsigned ? {} : this.signatureHeaders(method, pathWithQuery, raw, options);
    const response = await fetch(this.options.baseUrl + pathWithQuery, {
      method,
      headers: { ...(raw ? { 'content-type': 'application/json' } : {}), ...signature, ...options.headers },
      body: raw || undefined,
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : undefined) as T };
  }

  get<T = Body>(pathWithQuery: string, options?: HttpRequestOptions): Promise<HttpExchange<T>> {
    return this.request<T>('GET', pathWithQuery, undefined, options);
  }

  post<T = Body>(pathWithQuery: string, body?: unknown, options?: HttpRequestOptions): Promise<HttpExchange<T>> {
    return this.request<T>('POST', pathWithQuery, body, options);
  }

  put<T = Body>(pathWithQuery: string, body?: unknown, options?: HttpRequestOptions): Promise<HttpExchange<T>> {
    return this.request<T>('PUT', pathWithQuery, body, options);
  }

  patch<T = Body>(pathWithQuery: string, body?: unknown, options?: HttpRequestOptions): Promise<HttpExchange<T>> {
    return this.request<T>('PATCH', pathWithQuery, body, options);
  }

  delete<T = Body>(pathWithQuery: string, options?: HttpRequestOptions): Promise<HttpExchange<T>> {
    return this.request<T>('DELETE', pathWithQuery, undefined, options);
  }
}
