import { Module } from '@nestjs/common';
import { IsOptional, IsString } from 'class-validator';
import { ActionFulfillment, Fulfillment, FulfillmentResult, defineActionType } from '@punctual/sdk';
import { BUILT_IN_ACTION_TYPES } from '@app/built-in-actions';
import { BUILT_IN_FULFILLMENT_MODULES } from '../../apps/worker/src/fulfillments/built-in-fulfillments';

export class NoopData {
  @IsOptional()
  @IsString()
  label?: string;
}

/**
 * An action type whose fulfillment does nothing, so the benchmark measures scheduling alone
 * (claim, state changes, history, queue), as raw BullMQ's baseline measures its queue alone.
 */
export const BENCH_NOOP = defineActionType({ type: 'BENCH_NOOP', dataClass: NoopData });

@Fulfillment(BENCH_NOOP)
export class NoopFulfillment implements ActionFulfillment<NoopData> {
  async fulfill(): Promise<FulfillmentResult> {
    return {};
  }
}

@Module({ providers: [NoopFulfillment] })
export class NoopModule {}

export const BENCH_ACTION_TYPES = [...BUILT_IN_ACTION_TYPES, BENCH_NOOP];
export const BENCH_FULFILLMENT_MODULES = [...BUILT_IN_FULFILLMENT_MODULES, NoopModule];
