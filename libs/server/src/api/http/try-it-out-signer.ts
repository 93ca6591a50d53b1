/** What Swagger UI hands its request interceptor before a "Try it out" call. */
export interface TryItOutRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: unknown;
}

/**
 * Swagger UI's request interceptor on /docs: a "Try it out" call is signed in the browser when the
 * Authorize dialog's `X-Punctual-Key` holds `keyId:secret`. The call carries the key id and the
 * three other signature headers; the secret stays in the page's memory (Swagger UI keeps what was
 * typed into the dialog only until the page is closed) and is never sent. Where the browser cannot
 * sign (Web Crypto needs HTTPS or localhost), or the call goes to another origin than the page's,
 * the key header is dropped and the call goes unsigned, so no secret and no signature leave for
 * anywhere but this API.
 *
 * Swagger UI receives this function as source text (`toString()`), so it must be self-contained:
 * no imports, no helpers outside it.
 */
export async function signTryItOut(request: TryItOutRequest): Promise<TryItOutRequest> {
  const name = Object.keys(request.headers).find((header) => header.toLowerCase() === 'x-punctual-key');
  const pasted = name ? request.headers[name] : '';
  const colon = pasted.indexOf(':');
  if (!name || colon < 0) return request;
  delete request.headers[name];
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) {
    console.error('Punctual: this page cannot sign here (Web Crypto needs HTTPS or localhost); the request goes unsigned.');
    return request;
  }
  const page = (globalThis as { location?: { href: string; origin: string } }).location;
  const url = new URL(request.url, page?.href);
  if (page && url.origin !== page.origin) {
    console.error(`Punctual: this page signs only calls to ${page.origin}; the call to ${url.origin} goes unsigned.`);
    return request;
  }
  const keyId = pasted.slice(0, colon);
  const secret = pasted.slice(colon + 1);
  const hex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonce = hex(globalThis.crypto.getRandomValues(new Uint8Array(16)));
  const body = typeof request.body === 'string' ? request.body : '';
  const encoder = new TextEncoder();
  const key = await subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const signed = `${timestamp}\n${nonce}\n${request.method.toUpperCase()}\n${url.pathname}${url.search}\n${body}`;
  const signature = new Uint8Array(await subtle.sign('HMAC', key, encoder.encode(signed)));
  Object.assign(request.headers, {
    'X-Punctual-Key': keyId,
    'X-Punctual-Timestamp': timestamp,
    'X-Punctual-Nonce': nonce,
    'X-Punctual-Signature': `v1=${hex(signature)}`,
  });
  return request;
}
