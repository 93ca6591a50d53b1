import fc from 'fast-check';
import { PunctualConfig } from '@app/config';
import { Clock } from '@app/domain';
import { KeyRegistry } from './key-registry';
import { NonceStore } from './nonce.store';
import { SignatureError } from './signature.errors';
import { SignatureVerifier, SignedRequest } from './signature.verifier';
import { SIGNATURE_HEADERS, signRequest } from '@punctual/contract';

const NOW = new Date('2026-01-01T00:00:00.000Z');
const WINDOW_SECONDS = 300;
const KEYS = new Map([
  ['k1', { secret: 'secret-one', tenant: 'default' }],
  ['k2', { secret: 'secret-two', tenant: 'team-b' }],
]);
const config = { auth: { apiKeys: KEYS, signatureWindowSeconds: WINDOW_SECONDS } } as unknown as PunctualConfig;
const clock: Clock = { now: () => NOW };
/** The configured keys alone: no key made at run time. */
const configuredKeys = { find: (keyId: string) => KEYS.get(keyId) } as KeyRegistry;

/** The verifier the guard uses, its nonces kept in memory (insert-if-absent, as Postgres does) instead of in Postgres. */
function verifier(): SignatureVerifier {
  const seen = new Set<string>();
  const nonces = {
    accept: (keyId: string, nonce: string) => Promise.resolve(!seen.has(`${keyId}:${nonce}`) && !!seen.add(`${keyId}:${nonce}`)),
  } as unknown as NonceStore;
  return new SignatureVerifier(config, configuredKeys, nonces, clock);
}

const signed = fc.record({
  keyId: fc.constantFrom(...KEYS.keys()),
  method: fc.oneof(fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'), fc.stringMatching(/^[A-Z]{1,12}$/)),
  // The request target as sent: printable ASCII, one byte per character.
  pathWithQuery: fc
    .string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 300, size: 'medium' })
    .map((rest) => `/${rest}`),
  // Empty and short bodies, and long ones up to a few kilobytes.
  body: fc.oneof(fc.uint8Array({ maxLength: 64 }), fc.uint8Array({ maxLength: 2048, size: 'max' })).map((bytes) => Buffer.from(bytes)),
  skewSeconds: fc.integer({ min: -WINDOW_SECONDS, max: WINDOW_SECONDS }),
  nonce: fc.stringMatching(/^[A-Za-z0-9_-]{16,128}$/),
});
type Signed = typeof signed extends fc.Arbitrary<infer T> ? T : never;

/** The request as the verifier gets it: lowercase header names, the raw body bytes. */
function requestOf(input: Signed): SignedRequest {
  const headers = signRequest({
    keyId: input.keyId,
    secret: KEYS.get(input.keyId)!.secret,
    method: input.method,
    pathWithQuery: input.pathWithQuery,
    body: input.body,
    timestamp: NOW.getTime() / 1000 + input.skewSeconds,
    nonce: input.nonce,
  });
  return {
    headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value])),
    method: input.method,
    pathWithQuery: input.pathWithQuery,
    rawBody: input.body,
  };
}

/** `text` with the character at `index` (wrapped) replaced by another; `code` picks which. */
function withOtherChar(text: string, index: number, code: number): string {
  const at = index % text.length;
  const other = String.fromCharCode((text.charCodeAt(at) + 1 + (code % 255)) % 256);
  return text.slice(0, at) + other + text.slice(at + 1);
}

const tampering = fc.record({
  field: fc.constantFrom('body', 'path', 'method', 'timestamp', 'signature'),
  index: fc.nat(),
  code: fc.nat(),
});

describe('request signatures, for random requests', () => {
  it('a signed request verifies, for any method, path and body', async () => {
    await fc.assert(
      fc.asyncProperty(signed, async (input) => {
        await expect(verifier().verify(requestOf(input))).resolves.toEqual({ keyId: input.keyId, tenant: KEYS.get(input.keyId)!.tenant });
      }),
      { numRuns: 200 },
    );
  });

  it('one changed byte of the body, path, method, timestamp or signature is refused, and spends no nonce', async () => {
    await fc.assert(
      fc.asyncProperty(signed, tampering, async (input, { field, index, code }) => {
        const original = requestOf(input);
        const changed: SignedRequest = { ...original, headers: { ...original.headers } };
        switch (field) {
          case 'body': {
            fc.pre(input.body.length > 0);
            const body = Buffer.from(input.body);
            const at = index % body.length;
            body[at] = (body[at] + 1 + (code % 255)) % 256;
            changed.rawBody = body;
            break;
          }
          case 'path':
            changed.pathWithQuery = withOtherChar(input.pathWithQuery, index, code);
            break;
          case 'method':
            changed.method = withOtherChar(input.method, index, code);
            // The signed METHOD is upper case (docs/api.md): `post` is the same method as `POST`.
            fc.pre(changed.method.toUpperCase() !== input.method);
            break;
          case 'timestamp':
          case 'signature': {
            const header = SIGNATURE_HEADERS[field].toLowerCase();
            changed.headers[header] = withOtherChar(original.headers[header] as string, index, code);
            break;
          }
        }
        const verify = verifier();
        await expect(verify.verify(changed)).rejects.toThrow(SignatureError);
        // Its nonce is checked last, so the refused copy did not use it up.
        await expect(verify.verify(original)).resolves.toEqual({ keyId: input.keyId, tenant: KEYS.get(input.keyId)!.tenant });
      }),
      // A failure's shrinking is bounded in time: it reports the smallest counterexample found by then.
      { numRuns: 500, interruptAfterTimeLimit: 20_000 },
    );
  });
});
