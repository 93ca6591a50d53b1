import { Module } from '@nestjs/common';
import { IsString } from 'class-validator';
import { ActionFulfillment, Fulfillment, FulfillmentResult, defineActionType } from '@punctual/sdk';
import { BUILT_IN_ACTION_TYPES } from '@app/built-in-actions';
import { runWorker } from '@punctual/server';

/** A type whose fulfillment kills the worker running it, every time: a poison pill. */
export class PoisonData {
  @IsString()
  reason: string;
}

export const POISON = defineActionType({ type: 'TEST_POISON', dataClass: PoisonData });

@Fulfillment(POISON)
class PoisonFulfillment implements ActionFulfillment<PoisonData> {
  fulfill(): Promise<FulfillmentResult> {
    process.kill(process.pid, 'SIGKILL');
    return new Promise(() => undefined);
  }
}

@Module({ providers: [PoisonFulfillment] })
class PoisonModule {}

export const TYPES_WITH_POISON = [...BUILT_IN_ACTION_TYPES, POISON];

// Started as a process of its own by the poison-pill spec.
if (require.main === module) runWorker({ actionTypes: [POISON], fulfillmentModules: [PoisonModule] });
