import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { AttemptSigner, SignatureModule } from '@app/signature';
import { ActionProcessor } from './action-processor';
import { ActionWork } from './action-work';
import { BullConsumedQueues } from './bull-consumed-queues';
import { ConcurrencySlots } from './concurrency-slots';
import { CONSUMED_QUEUES } from './consumed-queues.port';
import { FulfillmentRegistry } from './fulfillment.registry';
import { QueueConsumers } from './queue-consumers';
import { RedisSlotStore } from './redis-slot-store';
import { RunningAttempts } from './running-attempts';
import { SLOT_STORE } from './slot-store.port';
import { TenantConcurrency } from './tenant-concurrency';
import { WorkerPresence } from './worker-presence';

/** Runs durable work from the queues: the action types' attempts here, and any other `QueuedWork` a module serves through `QueueConsumers`. */
@Module({
  imports: [DiscoveryModule, SignatureModule],
  providers: [
    AttemptSigner,
    FulfillmentRegistry,
    RunningAttempts,
    { provide: SLOT_STORE, useClass: RedisSlotStore },
    { provide: CONSUMED_QUEUES, useClass: BullConsumedQueues },
    ConcurrencySlots,
    TenantConcurrency,
    ActionProcessor,
    QueueConsumers,
    ActionWork,
    WorkerPresence,
  ],
  exports: [ActionProcessor, QueueConsumers, RunningAttempts],
})
export class ExecutionModule {}
