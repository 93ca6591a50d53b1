import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { AttemptSigner, SignatureModule } from '@app/signature';
import { ActionProcessor } from './action-processor';
import { FulfillmentRegistry } from './fulfillment.registry';
import { QueueConsumers } from './queue-consumers';
import { RunningAttempts } from './running-attempts';
import { TenantSlots } from './tenant-slots';
import { WorkerPresence } from './worker-presence';

@Module({
  imports: [DiscoveryModule, SignatureModule],
  providers: [AttemptSigner, FulfillmentRegistry, RunningAttempts, TenantSlots, ActionProcessor, QueueConsumers, WorkerPresence],
  exports: [ActionProcessor, QueueConsumers],
})
export class ExecutionModule {}
