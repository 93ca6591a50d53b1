import { CanActivate, ExecutionContext, ForbiddenException, Injectable } from '@nestjs/common';
import { callerOf } from '@app/signature';
import { replyGateOf } from './tenant-inbox-nats-server';

/**
 * After `SignatureGuard`, on NATS: a request whose reply subject is outside the inbox of the tenant
 * whose key signed it runs no handler, so nothing is done or stored for it. Its refusal is never
 * sent: `TenantInboxNatsServer` publishes nothing through a gate left shut.
 */
@Injectable()
export class TenantInboxGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const gate = replyGateOf(context.switchToRpc().getContext());
    if (!gate || gate.admit(callerOf(context).tenant)) return true;
    throw new ForbiddenException("The reply subject is outside the signing tenant's inbox");
  }
}
