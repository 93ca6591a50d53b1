import { Module } from '@nestjs/common';
import { SignatureModule } from '@app/signature';
import { ActionsModule } from '../actions/actions.module';
import { CalendarsModule } from '../calendars/calendars.module';
import { ActionsRpcController } from './actions.rpc-controller';
import { CalendarsRpcController } from './calendars.rpc-controller';
import { RpcErrorFilter } from './rpc-error.filter';

/** The message patterns; they are served only once `connectRpc` attached a transport. */
@Module({
  imports: [ActionsModule, CalendarsModule, SignatureModule],
  controllers: [ActionsRpcController, CalendarsRpcController],
  providers: [RpcErrorFilter],
})
export class RpcModule {}
