import { randomUUID } from 'node:crypto';
import { ActionState, ActionStatus, DEFAULT_TENANT } from '@app/domain';
import { InMemoryLifecycleStore } from '@app/testing';
import { CASE_CALENDAR } from '../libs/domain/src/lifecycle/lifecycle.cases';
import { describeStoreCases } from './support/lifecycle-store-cases';

// The store the unit specs stand in for Postgres with, held to the same case table as the real one
// (test/lifecycle-store.e2e-spec.ts): a unit spec passing on it says something about production.
describeStoreCases('The in-memory store', async () => {
  const store = new InMemoryLifecycleStore();
  store.putCalendar(DEFAULT_TENANT, CASE_CALENDAR, ['2025-03-01']);
  return {
    store,
    async stored(state: ActionState) {
      const id = randomUUID();
      await store.createMany([
        {
          id,
          tenantId: DEFAULT_TENANT,
          action: 'HTTP_REQUEST',
          apiKeyId: 'test-key',
          state: { ...state, callbackUrl: 'https://example.com/punctual-events' },
          history: { from: null, to: state.status, occurrence: state.occurrence, attempt: 0, note: 'case' },
        },
      ]);
      if (state.status === ActionStatus.InProgress) store.update(id, { claimToken: randomUUID(), claimedUntil: new Date(Date.now() + 3_600_000) });
      return store.row(id)!;
    },
    found: async (id: string) => ({ row: store.row(id), history: store.historyOf(id), decisions: store.decisionsOf(id), events: store.eventsOf(id) }),
    lapse: async (id: string) => store.update(id, { claimedUntil: new Date(Date.now() - 1000) }),
    close: async () => undefined,
  };
});
