import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import { VerifiedRequest, verifiedKeyOf } from './signature.guard';

/** The id of the API key that signed the request or message; use on routes and handlers behind `SignatureGuard`. */
export const ApiKeyId = createParamDecorator((_data: unknown, context: ExecutionContext): string => {
  const key =
    context.getType() === 'rpc' ? verifiedKeyOf(context.switchToRpc().getData()) : context.switchToHttp().getRequest<VerifiedRequest>().punctualKey;
  if (!key) throw new Error('ApiKeyId used on a route without SignatureGuard');
  return key.keyId;
});
