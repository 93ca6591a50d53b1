import { Module } from '@nestjs/common';
import { IsString, Length } from 'class-validator';
import { ActionFulfillment, Fulfillment, FulfillmentContext, FulfillmentResult, defineActionType } from '@punctual/sdk';
import { BUILT_IN_ACTION_TYPES } from '@app/built-in-actions';
import { runWorker } from '@punctual/server';

/** A type that exists only in the tests: proof that a new type needs no scheduling code. */
export class EchoData {
  @IsString()
  @Length(1, 100)
  message: string;
}

export const ECHO = defineActionType({ type: 'TEST_ECHO', dataClass: EchoData });

export const echoed: { message: string; idempotencyKey: string }[] = [];

@Fulfillment(ECHO, { maxRetries: 0 })
export class EchoFulfillment implements ActionFulfillment<EchoData> {
  async fulfill(data: EchoData, context: FulfillmentContext): Promise<FulfillmentResult> {
    echoed.push({ message: data.message, idempotencyKey: context.idempotencyKey });
    return { note: `echoed ${data.message}` };
  }
}

@Module({ providers: [EchoFulfillment] })
export class EchoModule {}

export const TYPES_WITH_ECHO = [...BUILT_IN_ACTION_TYPES, ECHO];

// Started as a process of its own by the worker fleet spec: a worker that knows TEST_ECHO beside stock ones that do not.
if (require.main === module) runWorker({ actionTypes: [ECHO], fulfillmentModules: [EchoModule] });
