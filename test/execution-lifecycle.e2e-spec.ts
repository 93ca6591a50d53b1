import { INestApplicationContext } from '@nestjs/common';
import { HttpReceiver, waitUntil } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { notificationExample } from './support/fixtures';
import { addJobByHand } from './support/queue-state';
import { startWorker } from './support/worker-test-app';

const DAY = 24 * 3_600_000;

describe('Running actions: timing, lifecycle, retries, recurrence', () => {
  let api: ApiTestApp;
  let worker: INestApplicationContext;
  const receiver = new HttpReceiver();

  beforeAll(async () => {
    await receiver.start();
    api = await startCleanApiApp(undefined, { LOCK_WINDOW_MS: '100' });
    worker = await startWorker({ env: { MAX_RETRIES: '2', BACKOFF_DELAYS_MS: '150,600' } });
  });
  afterAll(async () => {
    await worker.close();
    await api.close();
    await receiver.stop();
  });

  const httpAction = (executionTime: number, path: string) => ({
    action: 'HTTP_REQUEST',
    executionTime,
    data: { url: receiver.url(path), body: { path } },
  });

  async function create(body: object) {
    const response = await api.client.post('/actions', body);
    expect(response.status).toBe(201);
    return response.body;
  }

  const statusOf = async (id: string) => (await api.client.get(`/actions/${id}`)).body;
  const reaches = (id: string, status: string) => waitUntil(`action ${id} to be ${status}`, async () => {
    const action = await statusOf(id);
    return action.status === status ? action : null;
  });

  it('runs an action due now, with its idempotency key, and records the whole lifecycle', async () => {
    const action = await create(httpAction(Date.now(), '/now'));
    const done = await reaches(action.id, 'COMPLETED');
    expect(done).toMatchObject({ retryCount: 0, lastError: null, occurrence: 1 });
    const [call] = receiver.callsTo('/now');
    expect(call.headers['idempotency-key']).toBe(`${action.id}:1`);
    expect(JSON.parse(call.body)).toEqual({ path: '/now' });
    const history = (await api.client.get(`/actions/${action.id}/history`)).body;
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
    const [call] = receiver.callsTo('/soon');
    expect(call.at).toBeGreaterThanOrEqual(due);
    expect(call.at - due).toBeLessThan(1000);
  });

  it('retries with the configured growing delays, records each failure, FAILED after MAX_RETRIES, then a manual retry completes it', async () => {
    receiver.failNext(3, 503);
    const action = await create(httpAction(Date.now(), '/flaky'));
    const failed = await reaches(action.id, 'FAILED');
    expect(failed.retryCount).toBe(3);
    expect(failed.lastError).toMatch(/HTTP 503/);
    const calls = receiver.callsTo('/flaky');
    expect(calls).toHaveLength(3);
    const gaps = [calls[1].at - calls[0].at, calls[2].at - calls[1].at];
    expect(gaps[0]).toBeGreaterThanOrEqual(150);
    expect(gaps[1]).toBeGreaterThanOrEqual(600);
    expect(new Set(calls.map((c) => c.headers['idempotency-key']))).toEqual(new Set([`${action.id}:1`]));
    const history = (await api.client.get(`/actions/${action.id}/history`)).body;
    const failures = history.filter((h: any) => h.from === 'IN_PROGRESS');
    expect(failures.map((h: any) => [h.to, h.attempt])).toEqual([['PENDING', 1], ['PENDING', 2], ['FAILED', 3]]);
    expect(failures.every((h: any) => /HTTP 503/.test(h.note))).toBe(true);

    const retried = await api.client.post(`/actions/${action.id}/retry`);
    expect(retried.status).toBe(200);
    await reaches(action.id, 'COMPLETED');
    expect(receiver.callsTo('/flaky').at(-1)!.headers['idempotency-key']).toBe(`${action.id}:1`);
  });

  it('marks an action whose type has no fulfillment NO_ACTION and does not retry it', async () => {
    const action = await create(httpAction(Date.now() + 800, '/never'));
    await api.db.query(`UPDATE actions SET action = 'RETIRED_TYPE' WHERE id = $1`, [action.id]);
    const done = await reaches(action.id, 'NO_ACTION');
    expect(done.lastError).toBe('No fulfillment module for action type RETIRED_TYPE');
    expect(receiver.callsTo('/never')).toHaveLength(0);
    const history = (await api.client.get(`/actions/${action.id}/history`)).body;
    expect(history.at(-1)).toMatchObject({ from: 'IN_PROGRESS', to: 'NO_ACTION', note: 'No fulfillment module for action type RETIRED_TYPE' });
    expect(history.filter((h: any) => h.to === 'IN_PROGRESS')).toHaveLength(1);
  });

  it('runs the contract example once, advances it exactly one day, and completes it after the fifth run', async () => {
    const scheduled = Date.now() - 60_000;
    const action = await create(notificationExample(0, { executionTime: new Date(scheduled).toISOString() }));
    const first = await waitUntil('the first occurrence to finish', async () => {
      const current = await statusOf(action.id);
      return current.status === 'PENDING' && current.occurrence === 2 ? current : null;
    });
    expect(first).toMatchObject({ executionRemainder: 4, executionTime: new Date(scheduled + DAY).toISOString(), retryCount: 0 });

    // Each later occurrence is a day away: queue its job by hand as the delay running out would.
    for (let occurrence = 2; occurrence <= 5; occurrence += 1) {
      await addJobByHand(api.app, action, `manual-${occurrence}`);
      await waitUntil(`occurrence ${occurrence} to finish`, async () => {
        const current = await statusOf(action.id);
        return current.occurrence > occurrence || current.status === 'COMPLETED';
      });
    }
    const done = await reaches(action.id, 'COMPLETED');
    expect(done).toMatchObject({ executionRemainder: 0, occurrence: 5, executionTime: new Date(scheduled + 4 * DAY).toISOString() });
    const runs = (await api.client.get(`/actions/${action.id}/history`)).body.filter((h: any) => h.from === 'IN_PROGRESS');
    expect(runs.map((h: any) => h.occurrence)).toEqual([1, 2, 3, 4, 5]);
    expect(runs[0].note).toMatch(/^SMS to 60123456789 recorded/);
  });
});
