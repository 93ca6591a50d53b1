import { createHmac, randomUUID } from 'node:crypto';

export const SIGNATURE_HEADERS = {
  key: 'X-Punctual-Key',
  timestamp: 'X-Punctual-Timestamp',
  nonce: 'X-Punctual-Nonce',
  signature: 'X-Punctual-Signature',
} as const;

/** `TIMESTAMP\nNONCE\nMETHOD\nPATH_WITH_QUERY\nRAW_BODY`: the exact bytes the HMAC covers. */
export function signaturePayload(timestamp: string, nonce: string, method: string, pathWithQuery: string, rawBody: Buffer | string): Buffer {
  const head = Buffer.from(`${timestamp}\n${nonce}\n${method.toUpperCase()}\n${pathWithQuery}\n`, 'utf8');
  return Buffer.concat([head, typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody]);
}

/** `v1=` + lowercase hex HMAC-SHA256 of the payload, keyed with the secret. */
export function computeSignature(secret: string, payload: Buffer): string {
  return `v1=${createHmac('sha256', secret).update(payload).digest('hex')}`;
}

export interface SignRequestInput {
  keyId: string;
  secret: string;
  method: string;
  /** The request target exactly as sent, e.g. `/actions?status=FAILED`. */
  pathWithQuery: string;
  /** The exact body bytes; empty when there is none. */
  body?: Buffer | string;
  /** Unix seconds; now by default. */
  timestamp?: number;
  /** Fresh per request; a random UUID by default. */
  nonce?: string;
}

/** The four headers that authenticate one request. Used by clients, tests and `npm run sign`. */
export function signRequest(input: SignRequestInput): Record<string, string> {
  const timestamp = String(input.timestamp ?? Math.floor(Date.now() / 1000));
  const nonce = input.nonce ?? randomUUID();
  const payload = signaturePayload(timestamp, nonce, input.method, input.pathWithQuery, input.body ?? '');
  return {
    [SIGNATURE_HEADERS.key]: input.keyId,
    [SIGNATURE_HEADERS.timestamp]: timestamp,
    [SIGNATURE_HEADERS.nonce]: nonce,
    [SIGNATURE_HEADERS.signature]: computeSignature(input.secret, payload),
  };
}
