import { Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import { PunctualConfig } from '@app/config';
import { Clock } from '@app/domain';
import { KeyRegistry } from './key-registry';
import { NonceStore } from './nonce.store';
import { SignatureError } from './signature.errors';
import { SIGNATURE_HEADERS, computeSignature, signaturePayload } from '@punctual/contract';

/** What a signature covers, whatever the transport (HTTP request or RPC message). */
export interface SignedRequest {
  headers: Record<string, string | string[] | undefined>;
  method: string;
  pathWithQuery: string;
  rawBody: Buffer | string;
}

/** The key that signed a request, and the tenant it acts for. */
export interface VerifiedKey {
  keyId: string;
  tenant: string;
}

const NONCE = /^[A-Za-z0-9_-]{16,128}$/;
const TIMESTAMP = /^\d{1,12}$/;
const SIGNATURE = /^v1=[0-9a-f]{64}$/;
const SIGNED_STRING = 'TIMESTAMP\\nNONCE\\nMETHOD\\nPATH_WITH_QUERY\\nRAW_BODY';
/**
 * How much longer than strictly needed a nonce is kept: a replay sent at the last moment of the
 * window may reach Postgres later after its clock reading than the original did; this covers it.
 */
const NONCE_MARGIN_MS = 30_000;

/**
 * Verifies request signatures (docs/api.md): known key, fresh timestamp (either direction), HMAC over the
 * raw bytes compared in constant time, and a nonce not seen before for that key. Framework-free,
 * so the HTTP guard and RPC handlers share it.
 */
@Injectable()
export class SignatureVerifier {
  constructor(
    private readonly config: PunctualConfig,
    private readonly keys: KeyRegistry,
    private readonly nonces: NonceStore,
    private readonly clock: Clock,
  ) {}

  async verify(request: SignedRequest): Promise<VerifiedKey> {
    const keyId = this.header(request, SIGNATURE_HEADERS.key);
    const timestamp = this.header(request, SIGNATURE_HEADERS.timestamp);
    const nonce = this.header(request, SIGNATURE_HEADERS.nonce);
    const signature = this.header(request, SIGNATURE_HEADERS.signature);

    if (!TIMESTAMP.test(timestamp)) throw new SignatureError(`${SIGNATURE_HEADERS.timestamp} must be Unix time in seconds`);
    if (!NONCE.test(nonce)) throw new SignatureError(`${SIGNATURE_HEADERS.nonce} must be 16 to 128 characters of A-Z a-z 0-9 _ -`);
    if (!SIGNATURE.test(signature)) throw new SignatureError(`${SIGNATURE_HEADERS.signature} must be v1= followed by 64 lowercase hex digits`);
    const key = this.keys.find(keyId);
    if (key === undefined) throw new SignatureError(`Unknown key id '${keyId}'`);

    const window = this.config.auth.signatureWindowSeconds;
    const nowMs = this.clock.now().getTime();
    const skew = Math.abs(nowMs / 1000 - Number(timestamp));
    if (skew > window) {
      throw new SignatureError(
        `${SIGNATURE_HEADERS.timestamp} is ${Math.round(skew)} s away from server time; allowed skew is ${window} s. Check the client clock.`,
      );
    }

    const expected = Buffer.from(computeSignature(key.secret, signaturePayload(timestamp, nonce, request.method, request.pathWithQuery, request.rawBody)));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw new SignatureError(
        `Signature does not match for key '${keyId}': sign ${SIGNED_STRING} with the key's secret (HMAC-SHA256, hex). ${asSeen(request)}`,
      );
    }

    // Checked last so that forged requests cannot use up nonces. Kept until the timestamp leaves the
    // window (up to 2 × window for one signed ahead of this clock) rather than a fixed 2 × window,
    // which holds about half as many rows. Only this duration crosses to Postgres's clock, so an
    // offset between the two clocks cannot shorten it.
    const ttlMs = (Number(timestamp) + window) * 1000 - nowMs + NONCE_MARGIN_MS;
    if (!(await this.nonces.accept(keyId, nonce, ttlMs))) {
      throw new SignatureError(`Nonce already used for key '${keyId}' (replayed request); sign every request with a fresh nonce`);
    }
    return { keyId, tenant: key.tenant };
  }

  private header(request: SignedRequest, name: string): string {
    const value = request.headers[name.toLowerCase()] ?? request.headers[name];
    if (value === undefined || value === '') throw new SignatureError(`Missing header ${name}`);
    if (Array.isArray(value)) throw new SignatureError(`Header ${name} must be sent once`);
    return value;
  }
}

/**
 * What the server put in the signed string besides the caller's own headers, so a client can
 * compare it with what it signed: the two classic slips are a path without its query and a body
 * serialised again after signing. All of it is the caller's own request; nothing derives from the secret.
 */
function asSeen(request: SignedRequest): string {
  const body = Buffer.from(request.rawBody);
  const digest = createHash('sha256').update(body).digest('hex');
  return `The server saw METHOD ${request.method}, PATH_WITH_QUERY ${JSON.stringify(request.pathWithQuery)} and a RAW_BODY of ${body.length} bytes with SHA-256 ${digest}`;
}
