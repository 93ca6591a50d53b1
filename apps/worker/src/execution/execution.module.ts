import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ActionProcessor } from './action-processor';
import { FulfillmentRegistry } from './fulfillment.registry';
import { QueueConsumers } from './queue-consumers';

@Module({
  imports: [DiscoveryModule],
  providers: [FulfillmentRegistry, ActionProcessor, QueueConsumers],
  exports: [ActionProcessor, QueueConsumers],
})
export class ExecutionModule {}
