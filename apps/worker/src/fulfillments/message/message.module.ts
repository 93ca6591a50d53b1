import { Module } from '@nestjs/common';
import { MessageTransports } from './message-transports';
import { MessageFulfillment } from './message.fulfillment';

@Module({ providers: [MessageTransports, MessageFulfillment] })
export class MessageModule {}
