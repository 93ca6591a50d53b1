import { ActionEntity, ExecutionRepository } from '@app/database';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { httpRequestExample } from './support/fixtures';

/** Concurrent requests share statements; each must still get exactly its own answer. */
describe('Batched writes: concurrent creates, claims and outcomes in shared statements', () => {
  let api: ApiTestApp;
  let execution: ExecutionRepository;

  beforeAll(async () => {
    api = await startCleanApiApp();
    execution = api.app.get(ExecutionRepository);
  });
  afterAll(() => api.close());

  const staleBefore = () => new Date(Date.now() - 60_000);

  async function createDueActions(count: number): Promise<ActionEntity[]> {
    const created = await api.client.post('/actions/batch', { items: Array.from({ length: count }, () => httpRequestExample(3_600_000)) });
    expect(created.status).toBe(201);
    return Promise.all(created.body.items.map(async (item: { id: string }) => (await execution.claim(item.id, 0, staleBefore()))!.action));
  }

  async function historyOf(id: string): Promise<{ from_status: string | null; to_status: string; occurrence: number; attempt: number; note: string | null }[]> {
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
    const created = await api.client.post('/actions', httpRequestExample(3_600_000));
    const claims = await Promise.all(Array.from({ length: 10 }, () => execution.claim(created.body.id, 0, staleBefore())));
    expect(claims.filter((c) => c !== null)).toHaveLength(1);
    const entries = await historyOf(created.body.id);
    expect(entries.filter((e) => e.to_status === 'IN_PROGRESS')).toHaveLength(1);
  });

  it('claims in one batch: current revisions win, a stale revision gets nothing', async () => {
    const created = await api.client.post('/actions/batch', { items: Array.from({ length: 20 }, () => httpRequestExample(3_600_000)) });
    const ids: string[] = created.body.items.map((a: { id: string }) => a.id);
    const claims = await Promise.all([...ids.map((id) => execution.claim(id, 0, staleBefore())), execution.claim(ids[0], 7, staleBefore())]);
    expect(claims.slice(0, 20).map((c) => c?.action.id)).toEqual(ids);
    expect(claims[20]).toBeNull();
  });

  it('outcomes written together each land on their own row, with the occurrence that ran in the history', async () => {
    const claimed = await createDueActions(12);
    const retryAt = new Date(Date.now() + 3_600_000);
    const results = await Promise.all(
      claimed.map((action, i) =>
        i % 3 === 0
          ? execution.recordSuccess(action, `ok ${i}`, { kind: 'completed' })
          : i % 3 === 1
            ? execution.recordFailure(action, `boom ${i}`, { kind: 'retry', dueAt: retryAt })
            : execution.recordFailure(action, `gave up ${i}`, { kind: 'failed' }),
      ),
    );
    for (const [i, action] of claimed.entries()) {
      const [row] = await api.db.query(`SELECT status, retry_count, last_error, revision, next_attempt_at, finished_at FROM actions WHERE id = $1`, [action.id]);
      const expected =
        i % 3 === 0
          ? { status: 'COMPLETED', retry_count: 0, last_error: null, revision: 0, finished: true }
          : i % 3 === 1
            ? { status: 'PENDING', retry_count: 1, last_error: `boom ${i}`, revision: 1, finished: false }
            : { status: 'FAILED', retry_count: 1, last_error: `gave up ${i}`, revision: 0, finished: true };
      const { status, retry_count, last_error, revision } = row;
      expect({ status, retry_count, last_error, revision, finished: row.finished_at !== null }).toEqual(expected);
      if (i % 3 === 1) expect(row.next_attempt_at.getTime()).toBe(retryAt.getTime());
      expect(results[i]?.status).toBe(expected.status);
      const last = (await historyOf(action.id)).at(-1);
      expect(last).toEqual({ from_status: 'IN_PROGRESS', to_status: expected.status, occurrence: 1, attempt: 1, note: expected.last_error ?? `ok ${i}` });
    }
  });

  it('an outcome for a row no longer IN_PROGRESS of that revision changes nothing', async () => {
    const [action] = await createDueActions(1);
    expect(await execution.recordSuccess(action, null, { kind: 'completed' })).not.toBeNull();
    expect(await execution.recordFailure(action, 'late duplicate', { kind: 'failed' })).toBeNull();
    const [row] = await api.db.query(`SELECT status FROM actions WHERE id = $1`, [action.id]);
    expect(row.status).toBe('COMPLETED');
  });

  it('a recurring success advances the occurrence and the revision in the same statement', async () => {
    const created = await api.client.post('/actions', {
      ...httpRequestExample(3_600_000),
      repeat: true,
      frequency: 'DAILY',
      executionRemainder: 3,
    });
    const { action } = (await execution.claim(created.body.id, 0, staleBefore()))!;
    const next = new Date(action.executionTime.getTime() + 86_400_000);
    const updated = await execution.recordSuccess(action, null, { kind: 'next-occurrence', executionTime: next });
    expect(updated).toMatchObject({ status: 'PENDING', occurrence: 2, executionRemainder: 2, revision: 1, executionTime: next, nextAttemptAt: next });
    expect((await historyOf(action.id)).at(-1)).toMatchObject({ from_status: 'IN_PROGRESS', to_status: 'PENDING', occurrence: 1 });
  });
});
