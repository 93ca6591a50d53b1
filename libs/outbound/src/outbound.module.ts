import { Module } from '@nestjs/common';
import { PunctualConfig } from '@app/config';
import { HostResolver } from './client/host-resolver';
import { OutboundClient } from './client/outbound-client';
import { EgressPolicy } from './egress/egress-policy';
import { GrpcCaller } from './grpc/grpc-caller';

/** The egress policy from `OUTBOUND_ALLOWED_HOSTS` and the clients every outbound call goes through (HTTP, gRPC). */
@Module({
  providers: [
    { provide: EgressPolicy, inject: [PunctualConfig], useFactory: (config: PunctualConfig) => new EgressPolicy(config.outbound.allowedHosts) },
    HostResolver,
    OutboundClient,
    GrpcCaller,
  ],
  exports: [EgressPolicy, OutboundClient, GrpcCaller],
})
export class OutboundModule {}
