import { Module } from '@nestjs/common';
import { GrpcTargetCheck } from '@app/built-in-actions';
import { TenantsRepository } from '@app/database';
import { OutboundModule } from '@app/outbound';
import { SignatureModule } from '@app/signature';
import { ActionCommands } from './action-commands.service';
import { ActionInputChecks } from './action-input-checks';
import { ActionQueries } from './action-queries.service';
import { ActionsController } from './actions.controller';
import { DeadLettersService } from './dead-letters.service';
import { RedisRateLimiters } from './redis-rate-limiters';
import { TenantQuotas } from './tenant-quotas';
import { RATE_LIMITERS, TENANT_LIMITS } from './tenant-quotas.ports';

/** The actions' REST routes, and the services behind them that every other door (the console) calls too. */
@Module({
  imports: [SignatureModule, OutboundModule],
  controllers: [ActionsController],
  providers: [
    ActionCommands,
    ActionQueries,
    ActionInputChecks,
    DeadLettersService,
    TenantQuotas,
    GrpcTargetCheck,
    { provide: TENANT_LIMITS, useExisting: TenantsRepository },
    { provide: RATE_LIMITERS, useClass: RedisRateLimiters },
  ],
  exports: [ActionCommands, ActionQueries, DeadLettersService],
})
export class ActionsModule {}
