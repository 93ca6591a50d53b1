import { Module } from '@nestjs/common';
import { OutboundModule } from '@app/outbound';
import { GrpcFulfillment } from './grpc.fulfillment';

@Module({ imports: [OutboundModule], providers: [GrpcFulfillment] })
export class GrpcModule {}
