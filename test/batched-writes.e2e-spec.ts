import { ActionEntity, ActionsRepository, ClaimResult, EVERY_TENANT, LifecycleStore } from '@app/database';
import { LifecycleEvent, RetryPolicy, transition } from '@app/domain';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { httpRequestExample } from './support/fixtures';
import { catchUp } from '../libs/domain/src/lifecycle/lifecycle.cases';

/** Concurrent requests share statements; each must still get exactly its own answer. */
describe('Batched writes: concurrent creates, claims and outcomes in shared statements', () => {
  let api: ApiTestApp;
  let store: LifecycleStore;

  beforeAll(async () => {
    api = await startCleanApiApp();
    store = api.app.get(LifecycleStore);
  });
  afterAll(() => api.close());

  const LEASE_MS = 60_000;
  const retryPolicy: RetryPolicy = { maxRetries: 3, backoff: { kind: 'fixed-list', delaysMs: [3_600_000] } };
  const claimed = (claim: ClaimResult): ActionEntity => {
    if (claim.kind !== 'claimed') throw new Error(`expected a claim, got ${claim.kind}`);
    return claim.action;
  };
  const record = (action: ActionEntity, event: LifecycleEvent) => store.persist(transition(action, event), { kind: 'claim' });
  const succeeded = (note: string | null): LifecycleEvent => ({ type: 'succeeded', now: new Date(), note, catchUp });
  const failed = (error: string, permanent = false): LifecycleEvent => ({ type: 'failed', now: new Date(), error, permanent, retryPolicy });

  /** Actions due now (no worker runs here, so their jobs wait), each claimed by the test. */
  async function createDueActions(count: number): Promise<ActionEntity[]> {
    const created = await api.client.post('/actions/batch', { items: Array.from({ length: count }, () => httpRequestExample(0)) });
    expect(created.status).toBe(201);
    return Promise.all(created.body.items.map(async (item: { id: string }) => claimed(await store.claim(item.id, 0, 'HTTP_REQUEST', LEASE_MS))));
  }

  async function historyOf(
    id: string,
  ): Promise<{ from_status: string | null; to_status: string; occurrence: number; attempt: number; note: string | null }[]> {
    return api.db.query(`SELECT from_status, to_status, occurrence, attempt, note FROM action_history WHERE action_id = $1 ORDER BY id`, [id]);
  }

  it('40 parallel single creates: each response is its own stored action with one "created" entry', async () => {
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => api.client.post('/actions', httpRequestExample(3_600_000, { metadata: { n: i } }))),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(40).fill(201));
    for (const [i, response] of responses.entries()) {
      const [row] = await api.db.query(`SELECT metadata FROM actions WHERE id = $1`, [response.body.id]);
      expect(row.metadata).toEqual({ n: i });
      expect(await historyOf(response.body.id)).toEqual([{ from_status: null, to_status: 'PENDING', occurrence: 1, attempt: 0, note: 'created' }]);
    }
  });

  it('the same occurrence claimed ten times at once: one claim wins, one history entry', async () => {
    const created = await api.client.post('/actions', httpRequestExample(0));
    const claims = await Promise.all(Array.from({ length: 10 }, () => store.claim(created.body.id, 0, 'HTTP_REQUEST', LEASE_MS)));
    expect(claims.filter((c) => c.kind === 'claimed')).toHaveLength(1);
    const entries = await historyOf(created.body.id);
    expect(entries.filter((e) => e.to_status === 'IN_PROGRESS')).toHaveLength(1);
  });

  it('claims in one batch: current revisions win, a stale revision gets nothing', async () => {
    const created = await api.client.post('/actions/batch', { items: Array.from({ length: 20 }, () => httpRequestExample(0)) });
    const ids: string[] = created.body.items.map((a: { id: string }) => a.id);
    const claims = await Promise.all([...ids.map((id) => store.claim(id, 0, 'HTTP_REQUEST', LEASE_MS)), store.claim(ids[0], 7, 'HTTP_REQUEST', LEASE_MS)]);
    expect(claims.slice(0, 20).map((c) => claimed(c).id)).toEqual(ids);
    expect(claims[20]).toEqual({ kind: 'none' });
  });

  it("a claim before the due time (on Postgres's clock) is refused with the time left", async () => {
    const created = await api.client.post('/actions', httpRequestExample(60_000));
    const claim = await store.claim(created.body.id, 0, 'HTTP_REQUEST', LEASE_MS);
    expect(claim.kind).toBe('not-due');
    expect(claim.kind === 'not-due' && claim.dueInMs).toBeGreaterThan(50_000);
    expect((await historyOf(created.body.id)).map((e) => e.to_status)).toEqual(['PENDING']);
  });

  it('outcomes written together each land on their own row, with the occurrence that ran in the history', async () => {
    const actions = await createDueActions(12);
    const results = await Promise.all(
      actions.map((action, i) => record(action, i % 3 === 0 ? succeeded(`ok ${i}`) : i % 3 === 1 ? failed(`boom ${i}`) : failed(`gave up ${i}`, true))),
    );
    for (const [i, action] of actions.entries()) {
      const [row] = await api.db.query(`SELECT status, retry_count, last_error, revision, next_attempt_at, finished_at FROM actions WHERE id = $1`, [
        action.id,
      ]);
      const expected =
        i % 3 === 0
          ? { status: 'COMPLETED', retry_count: 0, last_error: null, revision: 0, finished: true }
          : i % 3 === 1
            ? { status: 'PENDING', retry_count: 1, last_error: `boom ${i}`, revision: 1, finished: false }
            : { status: 'FAILED', retry_count: 1, last_error: `gave up ${i}`, revision: 0, finished: true };
      const { status, retry_count, last_error, revision } = row;
      expect({ status, retry_count, last_error, revision, finished: row.finished_at !== null }).toEqual(expected);
      if (i % 3 === 1) expect(row.next_attempt_at.getTime()).toBeGreaterThan(Date.now() + 3_000_000);
      expect(results[i]?.status).toBe(expected.status);
      const last = (await historyOf(action.id)).at(-1);
      expect(last).toEqual({ from_status: 'IN_PROGRESS', to_status: expected.status, occurrence: 1, attempt: 1, note: expected.last_error ?? `ok ${i}` });
    }
  });

  it('each outcome answers with the action as stored, every field of it', async () => {
    const recurring = await api.client.post('/actions', { ...httpRequestExample(0), repeat: true, frequency: 'DAILY', executionRemainder: 3 });
    const actions = [...(await createDueActions(3)), claimed(await store.claim(recurring.body.id, 0, 'HTTP_REQUEST', LEASE_MS))];
    const events = [succeeded('done'), failed('boom'), failed('gave up', true), succeeded(null)];
    const results = await Promise.all(actions.map((action, i) => record(action, events[i])));
    for (const [i, action] of actions.entries()) {
      const stored = await api.app.get(ActionsRepository).findById(action.id, EVERY_TENANT);
      expect({ ...results[i] }).toEqual({ ...stored });
    }
  });

  it('an outcome without the claim (already recorded, or taken over) changes nothing', async () => {
    const [action] = await createDueActions(1);
    expect(await record(action, succeeded(null))).not.toBeNull();
    expect(await record(action, failed('late duplicate'))).toBeNull();
    const [row] = await api.db.query(`SELECT status FROM actions WHERE id = $1`, [action.id]);
    expect(row.status).toBe('COMPLETED');
  });

  it('a recurring success advances the occurrence and the revision in the same statement', async () => {
    const created = await api.client.post('/actions', {
      ...httpRequestExample(0),
      repeat: true,
      frequency: 'DAILY',
      executionRemainder: 3,
    });
    const action = claimed(await store.claim(created.body.id, 0, 'HTTP_REQUEST', LEASE_MS));
    const next = new Date(action.executionTime.getTime() + 86_400_000);
    const updated = await record(action, succeeded(null));
    expect(updated).toMatchObject({ status: 'PENDING', occurrence: 2, executionRemainder: 2, revision: 1, executionTime: next, nextAttemptAt: next });
    expect((await historyOf(action.id)).at(-1)).toMatchObject({ from_status: 'IN_PROGRESS', to_status: 'PENDING', occurrence: 1 });
  });
  it("outcomes written together relay the events they kept once, on their statement's first answer row only", async () => {
    const subscription = await api.client.post('/webhooks', { url: 'https://example.com/batched-events', events: ['action.succeeded'] });
    expect(subscription.status).toBe(201);
    type Answer = { event_ids: string[] | null }[];
    const relayed = jest.spyOn(store as unknown as { relayEvents(rows: Answer): void }, 'relayEvents');
    try {
      const actions = await createDueActions(12);
      await Promise.all(actions.map((action) => record(action, succeeded(null))));
      const answers = relayed.mock.calls.map(([rows]) => rows);
      // Repeated on every row, a statement of n outcomes would carry n² ids.
      expect(answers.flatMap((rows) => rows.slice(1).map((row) => row.event_ids))).toEqual(answers.flatMap((rows) => rows.slice(1).map(() => null)));
      const stored = await api.db.query(`SELECT id FROM webhook_events WHERE action_id = ANY($1) AND type = 'action.succeeded'`, [
        actions.map((a) => a.id),
      ]);
      expect(answers.flatMap((rows) => rows[0]?.event_ids ?? []).sort()).toEqual(stored.map((row: { id: string }) => row.id).sort());
      expect(stored).toHaveLength(12);
    } finally {
      relayed.mockRestore();
      await api.client.delete(`/webhooks/${subscription.body.id}`);
    }
  });
});
