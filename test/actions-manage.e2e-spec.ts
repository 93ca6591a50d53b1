import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { emptyTables, httpRequestExample, messageText, notificationExample } from './support/fixtures';
import { queuedJobs } from './support/queue-state';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const MISSING = '00000000-0000-4000-8000-000000000000';

describe('Reading and managing actions', () => {
  let api: ApiTestApp;

  beforeAll(async () => {
    api = await startCleanApiApp();
  });
  afterAll(() => api.close());

  async function create(body: object = httpRequestExample()) {
    const response = await api.client.post('/actions', body);
    expect(response.status).toBe(201);
    return response.body;
  }

  async function setStatus(id: string, status: string, executionTime?: Date) {
    await api.db.query(`UPDATE actions SET status = $2, execution_time = coalesce($3, execution_time) WHERE id = $1`, [id, status, executionTime ?? null]);
  }

  describe('GET /actions/:id', () => {
    it('404 for an unknown id, 400 for a malformed one', async () => {
      const missing = await api.client.get(`/actions/${MISSING}`);
      expect(missing.status).toBe(404);
      expect(missing.body.message).toBe(`Action ${MISSING} not found`);
      for (const path of ['/actions/not-a-uuid', '/actions/not-a-uuid/history']) {
        const bad = await api.client.get(path);
        expect(bad.status).toBe(400);
        expect(bad.body.message).toBe('id must be a UUID');
      }
      for (const [method, path] of [
        ['PATCH', '/actions/123'],
        ['DELETE', '/actions/123'],
        ['POST', '/actions/123/retry'],
      ]) {
        expect((await api.client.request(method, path, method === 'PATCH' ? {} : undefined)).status).toBe(400);
      }
    });
  });

  describe('GET /actions (list)', () => {
    beforeAll(() => emptyTables(api.db));

    it('filters by status and type, ordered by executionTime then id', async () => {
      const later = await create(httpRequestExample(3 * HOUR));
      const sooner = await create(httpRequestExample(2 * HOUR));
      const notification = await create(notificationExample(HOUR));
      await setStatus(later.id, 'FAILED');

      const all = await api.client.get('/actions');
      expect(all.status).toBe(200);
      expect(all.body.items.map((a: any) => a.id)).toEqual([notification.id, sooner.id, later.id]);
      expect(all.body.nextCursor).toBeNull();

      const failed = await api.client.get('/actions?status=FAILED');
      expect(failed.body.items.map((a: any) => a.id)).toEqual([later.id]);
      const http = await api.client.get('/actions?action=HTTP_REQUEST&status=PENDING');
      expect(http.body.items.map((a: any) => a.id)).toEqual([sooner.id]);
    });

    it.each([
      ['limit=0', /limit must be an integer from 1 to 500/],
      ['limit=501', /limit must be an integer from 1 to 500/],
      ['limit=abc', /limit must be an integer from 1 to 500/],
      ['status=DONE', /status must be one of PENDING/],
      ['cursor=garbage', /cursor is not valid/],
      ['colour=red', /property colour should not exist/],
    ])('rejects %s with 400', async (query, message) => {
      const response = await api.client.get(`/actions?${query}`);
      expect(response.status).toBe(400);
      expect(messageText(response.body)).toMatch(message);
    });

    it('walks every page exactly once, also while actions are inserted meanwhile', async () => {
      await emptyTables(api.db);
      const items = Array.from({ length: 230 }, (_, i) => httpRequestExample(HOUR + (i % 40) * 1000));
      const created = await api.client.post('/actions/batch', { items });
      const expected = new Set<string>(created.body.items.map((a: any) => a.id));

      const seen: string[] = [];
      let cursor: string | null = null;
      let page = 0;
      do {
        const response: any = await api.client.get(`/actions?limit=17${cursor ? `&cursor=${cursor}` : ''}`);
        expect(response.status).toBe(200);
        seen.push(...response.body.items.map((a: any) => a.id));
        cursor = response.body.nextCursor;
        // Interleave inserts before and after the cursor position.
        if (page++ % 3 === 0) await create(httpRequestExample(HOUR + (page % 40) * 1000));
      } while (cursor);

      expect(new Set(seen).size).toBe(seen.length);
      for (const id of expected) expect(seen).toContain(id);
    });
  });

  describe('GET /actions/stats', () => {
    it('counts by status, zero-filled, and by type', async () => {
      await emptyTables(api.db);
      const a = await create(httpRequestExample());
      await create(httpRequestExample());
      await create(notificationExample());
      await setStatus(a.id, 'COMPLETED');
      const response = await api.client.get('/actions/stats');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        total: 3,
        byStatus: { PENDING: 2, IN_PROGRESS: 0, COMPLETED: 1, FAILED: 0, NO_ACTION: 0, CANCELED: 0 },
        byAction: { HTTP_REQUEST: { PENDING: 1, COMPLETED: 1 }, SEND_NOTIFICATION: { PENDING: 1 } },
      });
    });
  });

  describe('GET /actions/:id/history', () => {
    it('starts with the creation entry', async () => {
      const action = await create();
      const response = await api.client.get(`/actions/${action.id}/history`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual([{ at: expect.any(String), from: null, to: 'PENDING', occurrence: 1, attempt: 0, note: 'created' }]);
      expect((await api.client.get(`/actions/${MISSING}/history`)).status).toBe(404);
    });
  });

  describe('PATCH /actions/:id', () => {
    it('changes the given fields, replaces data whole, and re-queues for a new time', async () => {
      const action = await create(notificationExample(5 * MINUTE));
      const jobsBefore = await queuedJobs(api.app);
      const newTime = new Date(Date.now() + 6 * MINUTE).toISOString();
      const data = { email: 'a@b.io', subject: 'New', name: 'Ann', templateType: 'USER_LATE_PAYMENT_NOTIFICATION', notificationType: 'EMAIL' };
      const response = await api.client.patch(`/actions/${action.id}`, { executionTime: newTime, data, executionRemainder: 2 });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        executionTime: newTime,
        nextAttemptAt: newTime,
        data,
        executionRemainder: 2,
        frequency: 'DAILY',
        status: 'PENDING',
      });
      expect(await queuedJobs(api.app)).toBe(jobsBefore); // old job removed, new one added
      const history = await api.client.get(`/actions/${action.id}/history`);
      expect(history.body[1]).toMatchObject({ from: 'PENDING', to: 'PENDING', note: 'updated executionTime, data, executionRemainder' });
    });

    it('an empty change answers the action as it is and writes nothing, however often it comes', async () => {
      const action = await create(notificationExample(HOUR));
      for (let i = 0; i < 5; i += 1) {
        const response = await api.client.patch(`/actions/${action.id}`, {});
        expect(response.status).toBe(200);
        expect(response.body).toEqual(action);
      }
      expect((await api.client.get(`/actions/${action.id}/history`)).body).toHaveLength(1);
    });

    it('turning repeat off clears frequency and executionRemainder', async () => {
      const action = await create(notificationExample(HOUR));
      const response = await api.client.patch(`/actions/${action.id}`, { repeat: false });
      expect(response.body).toMatchObject({ repeat: false, frequency: null, executionRemainder: null });
    });

    it.each([
      ['an unknown field', { action: 'HTTP_REQUEST' }, /property action should not exist/],
      ['status', { status: 'COMPLETED' }, /property status should not exist/],
      ['data that fails the type schema', { data: { url: 'nope' } }, /data.url/],
      ['repeat without frequency', { repeat: true }, /frequency or cron is required when repeat is true/],
      ['a bad executionTime', { executionTime: 'tomorrow' }, /executionTime must be/],
    ])('rejects %s with 400 and changes nothing', async (_name, body, message) => {
      const action = await create(httpRequestExample(HOUR));
      const response = await api.client.patch(`/actions/${action.id}`, body);
      expect(response.status).toBe(400);
      expect(messageText(response.body)).toMatch(message);
      expect((await api.client.get(`/actions/${action.id}`)).body).toEqual(action);
    });

    it('404 for an unknown id', async () => {
      expect((await api.client.patch(`/actions/${MISSING}`, { metadata: {} })).status).toBe(404);
    });
  });

  describe('lock window', () => {
    it('PENDING far ahead: patch and delete allowed, and its job goes', async () => {
      const action = await create(httpRequestExample(5 * MINUTE));
      expect((await api.client.patch(`/actions/${action.id}`, { metadata: { a: 1 } })).status).toBe(200);
      const jobsBefore = await queuedJobs(api.app);
      expect((await api.client.delete(`/actions/${action.id}`)).status).toBe(204);
      expect((await api.client.get(`/actions/${action.id}`)).status).toBe(404);
      expect(await queuedJobs(api.app)).toBe(jobsBefore - 1);
    });

    it('PENDING inside the window: 409 for patch and delete, nothing changed', async () => {
      const action = await create(httpRequestExample(60_000));
      const patch = await api.client.patch(`/actions/${action.id}`, { metadata: { a: 1 } });
      expect(patch.status).toBe(409);
      expect(patch.body.message).toMatch(/inside the lock window of 120000 ms/);
      const del = await api.client.delete(`/actions/${action.id}`);
      expect(del.status).toBe(409);
      expect((await api.client.get(`/actions/${action.id}`)).body).toEqual(action);
    });

    it('an occurrence waiting out a retry stays locked whatever its nextAttemptAt; cancel still stops it at once', async () => {
      const action = await create(httpRequestExample(HOUR));
      await api.db.query(
        `UPDATE actions SET execution_time = now() - interval '1 minute', next_attempt_at = now() + interval '1 hour', retry_count = 1 WHERE id = $1`,
        [action.id],
      );
      const patch = await api.client.patch(`/actions/${action.id}`, { metadata: { a: 1 } });
      expect(patch.status).toBe(409);
      expect(patch.body.message).toMatch(/inside the lock window/);
      const del = await api.client.delete(`/actions/${action.id}`);
      expect(del.status).toBe(409);
      expect(del.body.message).toContain(`use POST /actions/${action.id}/cancel`);
      const cancel = await api.client.post(`/actions/${action.id}/cancel`);
      expect(cancel.status).toBe(200);
      expect(cancel.body.status).toBe('CANCELED');
    });

    it('IN_PROGRESS: 409 for patch and delete', async () => {
      const action = await create(httpRequestExample(HOUR));
      await setStatus(action.id, 'IN_PROGRESS');
      for (const response of [await api.client.patch(`/actions/${action.id}`, { metadata: {} }), await api.client.delete(`/actions/${action.id}`)]) {
        expect(response.status).toBe(409);
        expect(response.body.message).toMatch(/IN_PROGRESS/);
      }
    });

    it.each(['COMPLETED', 'FAILED', 'NO_ACTION', 'CANCELED'])('%s: patch 409, delete 204', async (status) => {
      const action = await create(httpRequestExample(30_000));
      await setStatus(action.id, status);
      const patch = await api.client.patch(`/actions/${action.id}`, { metadata: {} });
      expect(patch.status).toBe(409);
      expect(patch.body.message).toMatch(/can be deleted but not changed/);
      expect((await api.client.delete(`/actions/${action.id}`)).status).toBe(204);
      expect((await api.client.get(`/actions/${action.id}`)).status).toBe(404);
      expect(await api.db.query('SELECT 1 FROM action_history WHERE action_id = $1', [action.id])).toHaveLength(0);
    });

    it('DELETE of an unknown id → 404', async () => {
      expect((await api.client.delete(`/actions/${MISSING}`)).status).toBe(404);
    });
  });

  describe('POST /actions/:id/retry', () => {
    it.each(['FAILED', 'NO_ACTION'])('puts a %s action back to PENDING, due now, same occurrence', async (status) => {
      const action = await create(httpRequestExample(HOUR));
      await api.db.query(`UPDATE actions SET status = $2, retry_count = 4, last_error = 'boom' WHERE id = $1`, [action.id, status]);
      const before = Date.now();
      const response = await api.client.post(`/actions/${action.id}/retry`);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ status: 'PENDING', retryCount: 0, occurrence: 1, executionTime: action.executionTime });
      expect(new Date(response.body.nextAttemptAt).getTime()).toBeGreaterThanOrEqual(before - 1000);
      expect(new Date(response.body.nextAttemptAt).getTime()).toBeLessThanOrEqual(Date.now());
      const history = await api.client.get(`/actions/${action.id}/history`);
      expect(history.body.at(-1)).toMatchObject({ from: status, to: 'PENDING', note: 'manual retry' });
    });

    it.each(['PENDING', 'IN_PROGRESS', 'COMPLETED'])('refuses a %s action with 409', async (status) => {
      const action = await create(httpRequestExample(HOUR));
      await setStatus(action.id, status);
      const response = await api.client.post(`/actions/${action.id}/retry`);
      expect(response.status).toBe(409);
      expect(response.body.message).toMatch(new RegExp(`is ${status}; only FAILED or NO_ACTION actions can be retried`));
    });

    it('404 for an unknown id', async () => {
      expect((await api.client.post(`/actions/${MISSING}/retry`)).status).toBe(404);
    });
  });
});
