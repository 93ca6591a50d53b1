import { Module } from '@nestjs/common';
import { GrpcTargetCheck } from '@app/built-in-actions';
import { OutboundModule } from '@app/outbound';
import { SignatureModule } from '@app/signature';
import { ActionCommands } from './action-commands.service';
import { ActionInputChecks } from './action-input-checks';
import { ActionQueries } from './action-queries.service';
import { ActionsController } from './actions.controller';
import { DeadLettersService } from './dead-letters.service';
import { TenantQuotas } from './tenant-quotas';

/** The actions' REST routes, and the services behind them that every other door (the console) calls too. */
@Module({
  imports: [SignatureModule, OutboundModule],
  controllers: [ActionsController],
  providers: [ActionCommands, ActionQueries, ActionInputChecks, DeadLettersService, TenantQuotas, GrpcTargetCheck],
  exports: [ActionCommands, ActionQueries, DeadLettersService],
})
export class ActionsModule {}
