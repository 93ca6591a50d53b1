import { Module } from '@nestjs/common';
import { OutboundModule } from '@app/outbound';
import { SignatureModule } from '@app/signature';
import { HttpRequestFulfillment } from './http-request.fulfillment';

@Module({ imports: [OutboundModule, SignatureModule], providers: [HttpRequestFulfillment] })
export class HttpRequestModule {}
