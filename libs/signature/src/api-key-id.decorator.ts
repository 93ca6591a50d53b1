import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import { VerifiedRequest } from './signature.guard';

/** The id of the API key that signed the request; use on routes behind `SignatureGuard`. */
export const ApiKeyId = createParamDecorator((_data: unknown, context: ExecutionContext): string => {
  const key = context.switchToHttp().getRequest<VerifiedRequest>().punctualKey;
  if (!key) throw new Error('ApiKeyId used on a route without SignatureGuard');
  return key.keyId;
});
