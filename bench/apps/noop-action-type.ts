import { Module } from '@nestjs/common';
import { IsOptional, IsString } from 'class-validator';
import { ActionFulfillment, Fulfillment, FulfillmentResult, defineActionType } from '@punctual/sdk';
import type { PunctualServerOptions } from '@punctual/server';

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

/** What the benchmark's API and worker add to the built-in types. */
export const BENCH_ADDITIONS: PunctualServerOptions = { actionTypes: [BENCH_NOOP], fulfillmentModules: [NoopModule] };
