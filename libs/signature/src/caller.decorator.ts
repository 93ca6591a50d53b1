import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import { VerifiedRequest, verifiedKeyOf } from './signature.guard';
import { VerifiedKey } from './signature.verifier';

/** The key that signed the request or message of `context`, behind `SignatureGuard`. */
export function callerOf(context: ExecutionContext): VerifiedKey {
  const key =
    context.getType() === 'rpc' ? verifiedKeyOf(context.switchToRpc().getData()) : context.switchToHttp().getRequest<VerifiedRequest>().punctualKey;
  if (!key) throw new Error('A caller was asked for on a route without SignatureGuard');
  return key;
}

/** The API key that signed the request or message, with the tenant it acts for. */
export const Caller = createParamDecorator((_data: unknown, context: ExecutionContext): VerifiedKey => callerOf(context));
