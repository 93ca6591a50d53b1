import { Module } from '@nestjs/common';
import { IsInt, Max, Min } from 'class-validator';
import { ActionFulfillment, Fulfillment, FulfillmentContext, FulfillmentResult, RetryLaterError, defineActionType } from '@punctual/sdk';
import { BUILT_IN_ACTION_TYPES } from '@app/built-in-actions';

/** A type that exists only in the tests: its first attempt asks to be retried `delayMs` later, the next one succeeds. */
export class RetryLaterData {
  @IsInt()
  @Min(0)
  @Max(60_000)
  delayMs: number;
}

export const RETRY_LATER = defineActionType({ type: 'TEST_RETRY_LATER', dataClass: RetryLaterData });

/** When each attempt started, by idempotency key. */
export const attemptsStarted = new Map<string, number[]>();

@Fulfillment(RETRY_LATER, { maxRetries: 3 })
export class RetryLaterFulfillment implements ActionFulfillment<RetryLaterData> {
  async fulfill(data: RetryLaterData, context: FulfillmentContext): Promise<FulfillmentResult> {
    attemptsStarted.set(context.idempotencyKey, [...(attemptsStarted.get(context.idempotencyKey) ?? []), Date.now()]);
    if (context.attempt === 1) throw new RetryLaterError(data.delayMs, 'downstream is busy');
    return { note: `done at attempt ${context.attempt}` };
  }
}

@Module({ providers: [RetryLaterFulfillment] })
export class RetryLaterModule {}

export const TYPES_WITH_RETRY_LATER = [...BUILT_IN_ACTION_TYPES, RETRY_LATER];
