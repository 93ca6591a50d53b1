import { Module } from '@nestjs/common';
import { IsBoolean } from 'class-validator';
import { ActionFulfillment, Fulfillment, FulfillmentContext, FulfillmentResult, defineActionType } from '@punctual/sdk';
import { BUILT_IN_ACTION_TYPES } from '@app/built-in-actions';
import { runWorker } from '@punctual/server';

export class WaitData {
  /** The first attempt never ends, whatever its signal says. */
  @IsBoolean()
  ignoreSignal: boolean;
}

export const WAIT = defineActionType({ type: 'TEST_WAIT', dataClass: WaitData });

/** Each time an attempt's signal stopped it in this process: when, and why. */
export const stops: { idempotencyKey: string; at: number; reason: string }[] = [];

/** A first attempt waits until its signal stops it (or, ignoring it, forever); later attempts succeed at once. */
@Fulfillment(WAIT)
class WaitFulfillment implements ActionFulfillment<WaitData> {
  async fulfill(data: WaitData, context: FulfillmentContext): Promise<FulfillmentResult> {
    if (context.attempt > 1) return { note: `attempt ${context.attempt} did not wait` };
    return new Promise((_resolve, reject) => {
      if (data.ignoreSignal) return;
      context.signal.addEventListener('abort', () => {
        stops.push({ idempotencyKey: context.idempotencyKey, at: Date.now(), reason: (context.signal.reason as Error).message });
        reject(new Error('stopped waiting'));
      });
    });
  }
}

@Module({ providers: [WaitFulfillment] })
export class WaitModule {}

export const TYPES_WITH_WAIT = [...BUILT_IN_ACTION_TYPES, WAIT];

// Started as a process of its own by the shutdown spec.
if (require.main === module) runWorker({ actionTypes: [WAIT], fulfillmentModules: [WaitModule] });
