import { Logger } from '@nestjs/common';
import { FulfillmentContext } from '@punctual/sdk';

/** A context for calling a fulfillment directly in a unit spec, as the worker would build it. */
export function fulfillmentContext(overrides: Partial<FulfillmentContext> = {}): FulfillmentContext {
  return {
    actionId: 'a1b2',
    occurrence: 3,
    attempt: 1,
    idempotencyKey: 'a1b2:3',
    scheduledAt: new Date(),
    tenantId: 'default',
    signingKeyId: 'test-key',
    signal: new AbortController().signal,
    metadata: {},
    logger: new Logger('spec'),
    ...overrides,
  };
}
