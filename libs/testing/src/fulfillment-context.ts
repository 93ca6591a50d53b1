import { Logger } from '@nestjs/common';
import { standardWebhookHeaders } from '@app/outbound';
import { FulfillmentContext } from '@punctual/sdk';
import { TEST_KEY } from './test-keys';

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
    // As the worker signs for the test tenant's key: `TEST_KEY`'s secret, the idempotency key as id.
    sign: async (body) =>
      standardWebhookHeaders({ id: overrides.idempotencyKey ?? 'a1b2:3', timestamp: new Date(), body }, Buffer.from(TEST_KEY.secret, 'utf8')),
    metadata: {},
    logger: new Logger('spec'),
    ...overrides,
  };
}
