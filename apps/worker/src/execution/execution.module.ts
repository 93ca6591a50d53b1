import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ActionProcessor } from './action-processor';
import { FulfillmentRegistry } from './fulfillment.registry';
import { QueueConsumers } from './queue-consumers';
import { RunningAttempts } from './running-attempts';
import { TenantSlots } from './tenant-slots';
import { WorkerPresence } from './worker-presence';

@Module({
  imports: [DiscoveryModule],
  providers: [FulfillmentRegistry, RunningAttempts, TenantSlots, ActionProcessor, QueueConsumers, WorkerPresence],
  exports: [ActionProcessor, QueueConsumers],
})
export class ExecutionModule {}
