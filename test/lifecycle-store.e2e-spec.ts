import { randomUUID } from 'node:crypto';
import { PunctualConfig } from '@app/config';
import { ActionsRepository, CalendarsRepository, EVERY_TENANT, LifecycleStore } from '@app/database';
import { ActionState, ActionStatus, DEFAULT_TENANT, HistoryDraft } from '@app/domain';
import { EntryDecision } from '@app/testing';
import { CASE_CALENDAR } from '../libs/domain/src/lifecycle/lifecycle.cases';
import { startCleanApiApp } from './support/api-test-app';
import { WrittenEvent, describeStoreCases } from './support/lifecycle-store-cases';

// The lifecycle's case table through the store on Postgres: changing what a statement writes for any case fails it.
describeStoreCases('The store on Postgres', async () => {
  const api = await startCleanApiApp();
  const store = api.app.get(LifecycleStore);
  const actions = api.app.get(ActionsRepository);
  // The calendar the cases name, holding the day their occurrences are due.
  const { maxPerTenant } = api.app.get(PunctualConfig).calendars;
  await api.app.get(CalendarsRepository).put(DEFAULT_TENANT, CASE_CALENDAR, ['2025-03-01'], null, maxPerTenant);

  return {
    store,
    async stored(state: ActionState) {
      const id = randomUUID();
      // A callback URL makes every notice land in the outbox, subscription or not.
      const withCallback = { ...state, callbackUrl: 'https://example.com/punctual-events' };
      await store.createMany([
        {
          id,
          tenantId: DEFAULT_TENANT,
          action: 'HTTP_REQUEST',
          apiKeyId: 'test-key',
          state: withCallback,
          history: { from: null, to: state.status, occurrence: state.occurrence, attempt: 0, note: 'case' },
        },
      ]);
      if (state.status === ActionStatus.InProgress) {
        await api.db.query(`UPDATE actions SET claim_token = $2, claimed_until = now() + interval '1 hour' WHERE id = $1`, [id, randomUUID()]);
      }
      return (await actions.findById(id, EVERY_TENANT))!;
    },
    async found(id: string) {
      const row = await actions.findById(id, EVERY_TENANT);
      const entries: (HistoryDraft & EntryDecision)[] = await api.db.query(
        `SELECT from_status AS "from", to_status AS "to", occurrence, attempt, note, event, outcome FROM action_history WHERE action_id = $1 ORDER BY id`,
        [id],
      );
      const history = entries.map(({ from, to, occurrence, attempt, note }) => ({ from, to, occurrence, attempt, note }));
      const decisions = entries.map(({ event, outcome }) => ({ event, outcome }));
      const events: WrittenEvent[] = await api.db.query(
        `SELECT type, occurrence, attempt, note, reason, skipped, skipped_count AS count FROM webhook_events WHERE action_id = $1`,
        [id],
      );
      return { row, history, decisions, events };
    },
    async lapse(id: string) {
      await api.db.query(`UPDATE actions SET claimed_until = now() - interval '1 second' WHERE id = $1`, [id]);
    },
    close: () => api.close(),
  };
});
