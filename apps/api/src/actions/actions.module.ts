import { Module } from '@nestjs/common';
import { SignatureModule } from '@app/signature';
import { ActionsController } from './actions.controller';
import { ActionsService } from './actions.service';
import { LockExplainer } from './lock-explainer';

@Module({
  imports: [SignatureModule],
  controllers: [ActionsController],
  providers: [ActionsService, LockExplainer],
})
export class ActionsModule {}
