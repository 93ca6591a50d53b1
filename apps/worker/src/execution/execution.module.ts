import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ActionProcessor } from './action-processor';
import { AttemptOutcome } from './attempt-outcome';
import { FulfillmentRegistry } from './fulfillment.registry';
import { QueueConsumers } from './queue-consumers';

@Module({
  imports: [DiscoveryModule],
  providers: [FulfillmentRegistry, AttemptOutcome, ActionProcessor, QueueConsumers],
  exports: [ActionProcessor],
})
export class ExecutionModule {}
