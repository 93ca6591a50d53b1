import { CanActivate, ExecutionContext, Injectable, ServiceUnavailableException, UnauthorizedException } from '@nestjs/common';
import { PATTERN_METADATA } from '@nestjs/microservices/constants';
import { RpcException } from '@nestjs/microservices';
import { Request } from 'express';
import { NonceStoreUnavailableError, SignatureError } from './signature.errors';
import { SignatureVerifier, SignedRequest, VerifiedKey } from './signature.verifier';

/** An HTTP request after the guard let it through. */
export type VerifiedRequest = Request & { rawBody?: Buffer; punctualKey?: VerifiedKey };

/**
 * An RPC message: the signature headers beside the body. It is signed like an HTTP request
 * with METHOD `RPC`, PATH_WITH_QUERY the message pattern, RAW_BODY `JSON.stringify(body)`.
 */
export interface SignedMessage<T = unknown> {
  headers: Record<string, string>;
  body: T;
}

/** Protects HTTP routes and RPC handlers with contract §1 signatures. */
@Injectable()
export class SignatureGuard implements CanActivate {
  constructor(private readonly verifier: SignatureVerifier) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() === 'rpc') return this.verifyMessage(context);
    const request = context.switchToHttp().getRequest<VerifiedRequest>();
    const signed: SignedRequest = {
      headers: request.headers,
      method: request.method,
      pathWithQuery: request.originalUrl,
      rawBody: request.rawBody ?? '',
    };
    try {
      request.punctualKey = await this.verifier.verify(signed);
      return true;
    } catch (error) {
      if (error instanceof SignatureError) throw new UnauthorizedException({ statusCode: 401, error: 'Unauthorized', message: error.message });
      if (error instanceof NonceStoreUnavailableError) throw new ServiceUnavailableException(error.message);
      throw error;
    }
  }

  private async verifyMessage(context: ExecutionContext): Promise<boolean> {
    const message = context.switchToRpc().getData<Partial<SignedMessage>>();
    const patterns: unknown[] = Reflect.getMetadata(PATTERN_METADATA, context.getHandler()) ?? [];
    const pattern = typeof patterns[0] === 'string' ? patterns[0] : JSON.stringify(patterns[0]);
    try {
      if (typeof message?.headers !== 'object' || message.headers === null) throw new SignatureError('RPC message must be { headers, body }');
      await this.verifier.verify({ headers: message.headers, method: 'RPC', pathWithQuery: pattern, rawBody: JSON.stringify(message.body ?? null) });
      return true;
    } catch (error) {
      if (error instanceof SignatureError || error instanceof NonceStoreUnavailableError) {
        throw new RpcException({ status: error instanceof SignatureError ? 401 : 503, message: error.message });
      }
      throw error;
    }
  }
}
