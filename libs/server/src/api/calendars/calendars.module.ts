import { Module } from '@nestjs/common';
import { SignatureModule } from '@app/signature';
import { CalendarsController } from './calendars.controller';
import { CalendarsService } from './calendars.service';

/** The signed `/calendars` routes; RPC and the console serve calendars through the same service. */
@Module({ imports: [SignatureModule], controllers: [CalendarsController], providers: [CalendarsService], exports: [CalendarsService] })
export class CalendarsModule {}
