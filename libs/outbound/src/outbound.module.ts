import { Module } from '@nestjs/common';
import { PunctualConfig } from '@app/config';
import { HostResolver } from './client/host-resolver';
import { OutboundClient } from './client/outbound-client';
import { EgressPolicy } from './egress/egress-policy';

/** The egress policy from `OUTBOUND_ALLOWED_HOSTS` and the one client every outbound call goes through. */
@Module({
  providers: [
    { provide: EgressPolicy, inject: [PunctualConfig], useFactory: (config: PunctualConfig) => new EgressPolicy(config.outbound.allowedHosts) },
    HostResolver,
    OutboundClient,
  ],
  exports: [EgressPolicy, OutboundClient],
})
export class OutboundModule {}
