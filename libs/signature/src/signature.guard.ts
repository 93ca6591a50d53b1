import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { PATTERN_METADATA } from '@nestjs/microservices/constants';
import { Request } from 'express';
import { SignatureError } from './signature.errors';
import { SignatureVerifier, SignedRequest, VerifiedKey } from './signature.verifier';

/** An HTTP request after the guard let it through. */
export type VerifiedRequest = Request & { rawBody?: Buffer; punctualKey?: VerifiedKey };

/**
 * An RPC message: the signature headers beside the body, which is the JSON text itself. It is
 * signed like an HTTP request with METHOD `RPC`, PATH_WITH_QUERY the message pattern and RAW_BODY
 * the text of `body` byte for byte, so nothing is serialised twice on either side.
 */
export interface SignedMessage {
  headers: Record<string, string>;
  body: string;
}

/** The most entries an RPC message's `headers` may hold: the four signature headers and Idempotency-Key, with room to spare. */
export const MAX_MESSAGE_HEADERS = 32;

/**
 * Why an RPC message with `count` headers is refused before anything else is done with it; null
 * when it is not. Each header is looked up by name without regard to case, a walk over all of
 * them: thousands would cost every lookup that much.
 */
export function tooManyHeadersProblem(count: number): string | null {
  return count > MAX_MESSAGE_HEADERS
    ? `headers holds ${count} entries; an RPC message carries its signature headers and Idempotency-Key, at most ${MAX_MESSAGE_HEADERS}`
    : null;
}

/** The key that signed each RPC message the guard let through, by message. */
const verifiedMessages = new WeakMap<object, VerifiedKey>();

/** The key that signed an RPC message the guard let through; undefined for any other message. */
export function verifiedKeyOf(message: unknown): VerifiedKey | undefined {
  return typeof message === 'object' && message !== null ? verifiedMessages.get(message) : undefined;
}

/**
 * Protects HTTP routes and RPC handlers with request signatures (docs/api.md). A refusal is a
 * `SignatureError`, an unreachable nonce store a `NonceStoreUnavailableError`: the API answers
 * both by their code, the same for every transport.
 */
@Injectable()
export class SignatureGuard implements CanActivate {
  constructor(private readonly verifier: SignatureVerifier) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() === 'rpc') {
      const message = context.switchToRpc().getData<unknown>();
      verifiedMessages.set(message as object, await this.verifyMessage(message, patternOf(context)));
      return true;
    }
    const request = context.switchToHttp().getRequest<VerifiedRequest>();
    const signed: SignedRequest = {
      headers: request.headers,
      method: request.method,
      pathWithQuery: request.originalUrl,
      rawBody: request.rawBody ?? '',
    };
    request.punctualKey = await this.verifier.verify(signed);
    return true;
  }

  /** The body text is verified as it came; the handler parses it only afterwards. A body that is not text cannot carry a signature. */
  private verifyMessage(message: unknown, pattern: string): Promise<VerifiedKey> {
    const { headers, body } = (typeof message === 'object' && message !== null ? message : {}) as Partial<Record<keyof SignedMessage, unknown>>;
    if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) {
      throw new SignatureError('An RPC message must be { headers, body } with the signature headers in headers');
    }
    const tooMany = tooManyHeadersProblem(Object.keys(headers).length);
    if (tooMany) throw new SignatureError(tooMany);
    if (typeof body !== 'string') throw new SignatureError('body must be the JSON text of the request (a string), signed as it is');
    return this.verifier.verify({ headers: headers as Record<string, string>, method: 'RPC', pathWithQuery: pattern, rawBody: body });
  }
}

/** The pattern the handler serves: what an RPC message is signed for, in place of a path. */
function patternOf(context: ExecutionContext): string {
  const patterns = (Reflect.getMetadata(PATTERN_METADATA, context.getHandler()) as unknown[] | undefined) ?? [];
  return typeof patterns[0] === 'string' ? patterns[0] : JSON.stringify(patterns[0]);
}
