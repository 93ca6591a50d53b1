import { waitUntil } from '@app/testing';
import { notificationExample } from './support/fixtures';
import { useRunningStack } from './support/running-stack';

const DAY = 24 * 3_600_000;

describe('Running actions: timing, lifecycle, retries, recurrence', () => {
  const stack = useRunningStack({ api: { LOCK_WINDOW_MS: '100' }, worker: { MAX_RETRIES: '2', BACKOFF_DELAYS_MS: '150,600' } });

  const httpAction = (executionTime: number, path: string) => ({
    action: 'HTTP_REQUEST',
    executionTime,
    data: { url: stack.receiver.url(path), body: { path } },
  });

  async function create(body: object) {
    const response = await stack.api.client.post('/actions', body);
    expect(response.status).toBe(201);
    return response.body;
  }

  const statusOf = async (id: string) => (await stack.api.client.get(`/actions/${id}`)).body;
  const reaches = (id: string, status: string) =>
    waitUntil(`action ${id} to be ${status}`, async () => {
      const action = await statusOf(id);
      return action.status === status ? action : null;
    });

  it('runs an action due now, with its idempotency key, and records the whole lifecycle', async () => {
    const action = await create(httpAction(Date.now(), '/now'));
    const done = await reaches(action.id, 'COMPLETED');
    expect(done).toMatchObject({ retryCount: 0, lastError: null, occurrence: 1 });
    const [call] = stack.receiver.callsTo('/now');
    expect(call.headers['idempotency-key']).toBe(`${action.id}:1`);
    expect(JSON.parse(call.body)).toEqual({ path: '/now' });
    const history = (await stack.api.client.get(`/actions/${action.id}/history`)).body;
    expect(history.map((h: any) => [h.from, h.to, h.attempt])).toEqual([
      [null, 'PENDING', 0],
      ['PENDING', 'IN_PROGRESS', 1],
      ['IN_PROGRESS', 'COMPLETED', 1],
    ]);
    expect(history[2].note).toMatch(/^HTTP 200: \{"ok":true\}/);
  });

  it('does not run an action due in ~1 s before its time, and runs it soon after', async () => {
    const due = Date.now() + 1000;
    const action = await create(httpAction(due, '/soon'));
    await reaches(action.id, 'COMPLETED');
    const [call] = stack.receiver.callsTo('/soon');
    expect(call.at).toBeGreaterThanOrEqual(due);
    expect(call.at - due).toBeLessThan(1000);
  });

  it('retries with the configured growing delays, records each failure, FAILED after MAX_RETRIES, then a manual retry completes it', async () => {
    stack.receiver.failNext(3, 503);
    const action = await create(httpAction(Date.now(), '/flaky'));
    const failed = await reaches(action.id, 'FAILED');
    expect(failed.retryCount).toBe(3);
    expect(failed.lastError).toMatch(/HTTP 503/);
    const calls = stack.receiver.callsTo('/flaky');
    expect(calls).toHaveLength(3);
    const gaps = [calls[1].at - calls[0].at, calls[2].at - calls[1].at];
    expect(gaps[0]).toBeGreaterThanOrEqual(150);
    expect(gaps[1]).toBeGreaterThanOrEqual(600);
    expect(new Set(calls.map((c) => c.headers['idempotency-key']))).toEqual(new Set([`${action.id}:1`]));
    const history = (await stack.api.client.get(`/actions/${action.id}/history`)).body;
    const failures = history.filter((h: any) => h.from === 'IN_PROGRESS');
    expect(failures.map((h: any) => [h.to, h.attempt])).toEqual([
      ['PENDING', 1],
      ['PENDING', 2],
      ['FAILED', 3],
    ]);
    expect(failures.every((h: any) => /HTTP 503/.test(h.note))).toBe(true);

    const retried = await stack.api.client.post(`/actions/${action.id}/retry`);
    expect(retried.status).toBe(200);
    await reaches(action.id, 'COMPLETED');
    expect(stack.receiver.callsTo('/flaky').at(-1)!.headers['idempotency-key']).toBe(`${action.id}:1`);
  });

  it('marks NO_ACTION an action due for UNKNOWN_TYPE_GRACE_MS with no live worker knowing its type, without running it', async () => {
    const action = await create(httpAction(Date.now() + 800, '/never'));
    // Due an hour ago, past the default grace (10 minutes), in a type no worker ever declared.
    await stack.api.db.query(`UPDATE actions SET action = 'RETIRED_TYPE', next_attempt_at = now() - interval '1 hour' WHERE id = $1`, [action.id]);
    const done = await reaches(action.id, 'NO_ACTION');
    expect(done.lastError).toBe('No live worker knew action type RETIRED_TYPE while it was due');
    expect(stack.receiver.callsTo('/never')).toHaveLength(0);
    const history = (await stack.api.client.get(`/actions/${action.id}/history`)).body;
    // The promoter ends it from PENDING; no worker claims an action of a type it lacks.
    expect(history.at(-1)).toMatchObject({ from: 'PENDING', to: 'NO_ACTION', note: 'No live worker knew action type RETIRED_TYPE while it was due' });
    expect(history.filter((h: any) => h.to === 'NO_ACTION')).toHaveLength(1);
    expect(history.filter((h: any) => h.to === 'IN_PROGRESS')).toHaveLength(0);
  });

  it('runs the contract example five times, each occurrence exactly one day after the last, then completes it', async () => {
    // Every occurrence is already due (the schedule started four days ago) and RUN_ALL runs each missed
    // one in turn, so the whole schedule runs now; nothing may run before its time, so none is queued by hand.
    const scheduled = Date.now() - 4 * DAY - 60_000;
    const action = await create(notificationExample(0, { executionTime: new Date(scheduled).toISOString(), misfirePolicy: 'RUN_ALL' }));
    const done = await reaches(action.id, 'COMPLETED');
    expect(done).toMatchObject({ executionRemainder: 0, occurrence: 5, retryCount: 0, executionTime: new Date(scheduled + 4 * DAY).toISOString() });
    const history = (await stack.api.client.get(`/actions/${action.id}/history`)).body;
    const runs = history.filter((h: any) => h.from === 'IN_PROGRESS');
    expect(runs.map((h: any) => h.occurrence)).toEqual([1, 2, 3, 4, 5]);
    expect(runs[0].note).toMatch(/^SMS to 60123456789 recorded/);
    const steps = runs.slice(0, 4).map((h: any) => /missed occurrence (\S+) runs next/.exec(h.note)![1]);
    expect(steps).toEqual([1, 2, 3, 4].map((day) => new Date(scheduled + day * DAY).toISOString()));
  });
});
