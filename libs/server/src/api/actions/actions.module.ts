import { Module } from '@nestjs/common';
import { OutboundModule } from '@app/outbound';
import { SignatureModule } from '@app/signature';
import { ActionsController } from './actions.controller';
import { ActionsService } from './actions.service';
import { DeadLettersService } from './dead-letters.service';
import { TenantQuotas } from './tenant-quotas';

/** The actions' REST routes, and the services behind them that every other door (the console) calls too. */
@Module({
  imports: [SignatureModule, OutboundModule],
  controllers: [ActionsController],
  providers: [ActionsService, DeadLettersService, TenantQuotas],
  exports: [ActionsService, DeadLettersService],
})
export class ActionsModule {}
