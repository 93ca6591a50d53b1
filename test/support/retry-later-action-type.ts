import { Module } from '@nestjs/common';
import { IsIn, IsInt, Max, Min } from 'class-validator';
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

/** The delays a hostile fulfillment writes into its RetryLaterError after the constructor bounded the one it gave. */
export const TAMPERED_DELAYS = { huge: 1e12, nan: Number.NaN, infinite: Number.POSITIVE_INFINITY, negative: -5 } as const;

export class TamperedRetryLaterData {
  @IsIn(Object.keys(TAMPERED_DELAYS))
  delay: keyof typeof TAMPERED_DELAYS;
}

/** A type whose first attempt throws a RetryLaterError with `delayMs` overwritten (it is a plain property); the next one succeeds. */
export const TAMPERED_RETRY_LATER = defineActionType({ type: 'TEST_TAMPERED_RETRY_LATER', dataClass: TamperedRetryLaterData });

@Fulfillment(TAMPERED_RETRY_LATER, { maxRetries: 3 })
export class TamperedRetryLaterFulfillment implements ActionFulfillment<TamperedRetryLaterData> {
  async fulfill(data: TamperedRetryLaterData, context: FulfillmentContext): Promise<FulfillmentResult> {
    if (context.attempt > 1) return { note: `done at attempt ${context.attempt}` };
    const error = new RetryLaterError(100, 'tampered');
    (error as { delayMs: number }).delayMs = TAMPERED_DELAYS[data.delay];
    throw error;
  }
}

@Module({ providers: [RetryLaterFulfillment, TamperedRetryLaterFulfillment] })
export class RetryLaterModule {}

export const TYPES_WITH_RETRY_LATER = [...BUILT_IN_ACTION_TYPES, RETRY_LATER, TAMPERED_RETRY_LATER];
