import { Module } from '@nestjs/common';
import { OutboundModule } from '@app/outbound';
import { HttpRequestFulfillment } from './http-request.fulfillment';

@Module({ imports: [OutboundModule], providers: [HttpRequestFulfillment] })
export class HttpRequestModule {}
