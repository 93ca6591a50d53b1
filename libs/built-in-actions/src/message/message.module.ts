import { Module } from '@nestjs/common';
import { SignatureModule } from '@app/signature';
import { MessageTransports } from './message-transports';
import { MessageFulfillment } from './message.fulfillment';

@Module({ imports: [SignatureModule], providers: [MessageTransports, MessageFulfillment] })
export class MessageModule {}
