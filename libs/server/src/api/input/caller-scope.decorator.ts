import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import { TenantScope, tenantScope } from '@app/database';
import { callerOf } from '@app/signature';

/** What the signed caller may see: its own tenant's data, and nothing of another's. */
export const CallerScope = createParamDecorator((_data: unknown, context: ExecutionContext): TenantScope => tenantScope(callerOf(context).tenant));
