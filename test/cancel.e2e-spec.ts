import { setTimeout as sleep } from 'node:timers/promises';
import { waitUntil } from '@app/testing';
import { promotionsSinceNow } from './support/loop-runs';
import { queuedJobs } from './support/queue-state';
import { useRunningStack } from './support/running-stack';

/** Every occurrence of a per-second cron is due within this window, so the action is always locked. */
const LOCK_WINDOW_MS = 1_500;
const EVERY_SECOND = '* * * * * *';

describe('POST /actions/:id/cancel: every action can be stopped, also a schedule faster than the lock window', () => {
  const stack = useRunningStack({ api: { LOCK_WINDOW_MS: String(LOCK_WINDOW_MS) }, worker: { MAX_RETRIES: '3', BACKOFF_DELAYS_MS: '200' } });

  const httpAction = (path: string, extra: object = {}) => ({
    action: 'HTTP_REQUEST',
    data: { url: stack.receiver.url(path) },
    ...extra,
  });

  async function create(body: object) {
    const response = await stack.api.client.post('/actions', body);
    expect(response.status).toBe(201);
    return response.body;
  }

  const read = async (id: string) => (await stack.api.client.get(`/actions/${id}`)).body;
  const history = async (id: string) =>
    (await stack.api.client.get(`/actions/${id}/history`)).body as { at: string; from: string; to: string; attempt: number; note: string }[];
  const reaches = (id: string, status: string, timeoutMs = 15_000) =>
    waitUntil(
      `action ${id} to be ${status}`,
      async () => {
        const action = await read(id);
        return action.status === status ? action : null;
      },
      timeoutMs,
    );

  it('stops a runaway per-second cron that DELETE and PATCH cannot touch: no call after the occurrence it covered', async () => {
    const action = await create(httpAction('/runaway', { repeat: true, cron: EVERY_SECOND }));
    await waitUntil('the cron to have run twice', () => stack.receiver.callsTo('/runaway').length >= 2);

    const refusedDelete = await stack.api.client.delete(`/actions/${action.id}`);
    expect(refusedDelete.status).toBe(409);
    expect(refusedDelete.body.message).toContain(`POST /actions/${action.id}/cancel`);
    expect((await stack.api.client.patch(`/actions/${action.id}`, { metadata: { stop: true } })).status).toBe(409);

    const cancel = await stack.api.client.post(`/actions/${action.id}/cancel`, { note: 'runaway' });
    const callsWhenAnswered = stack.receiver.callsTo('/runaway').length;
    expect(cancel.status).toBe(202);
    expect(cancel.body.status).not.toBe('CANCELED');
    expect(Date.parse(cancel.body.cancelRequestedAt)).toBeGreaterThan(Date.now() - 60_000);

    const canceled = await reaches(action.id, 'CANCELED');
    const callsWhenCanceled = stack.receiver.callsTo('/runaway').length;
    expect(callsWhenCanceled - callsWhenAnswered).toBeLessThanOrEqual(1);
    // No job left, and two sweeps since: no later occurrence can be queued or run.
    expect(await queuedJobs(stack.api.app)).toBe(0);
    await promotionsSinceNow(stack.worker);
    expect(stack.receiver.callsTo('/runaway')).toHaveLength(callsWhenCanceled);
    expect(await read(action.id)).toEqual(canceled);

    const entries = await history(action.id);
    expect(entries.find((e) => e.note?.startsWith('cancel requested: runaway'))).toBeDefined();
    expect(entries.at(-1)).toMatchObject({ from: 'IN_PROGRESS', to: 'CANCELED', note: expect.stringMatching(/canceled as requested$/) });
  });

  it('cancels an action outside the lock window at once (200): it never runs, stays CANCELED, can be deleted but not retried or canceled again', async () => {
    const action = await create(httpAction('/later', { executionTime: Date.now() + LOCK_WINDOW_MS + 1_000 }));
    const cancel = await stack.api.client.post(`/actions/${action.id}/cancel`, {});
    expect(cancel.status).toBe(200);
    expect(cancel.body).toMatchObject({ status: 'CANCELED', cancelRequestedAt: expect.any(String) });
    expect(await queuedJobs(stack.api.app)).toBe(0);

    await waitUntil('its due time to pass', () => Date.now() > Date.parse(action.executionTime));
    await promotionsSinceNow(stack.worker); // sweeps after it was due: a PENDING action would have been queued
    expect(stack.receiver.callsTo('/later')).toHaveLength(0);
    expect((await read(action.id)).status).toBe('CANCELED');
    expect((await history(action.id)).map((e) => [e.from, e.to])).toEqual([
      [null, 'PENDING'],
      ['PENDING', 'CANCELED'],
    ]);
    const stats = (await stack.api.client.get('/actions/stats')).body;
    expect(stats.byStatus.CANCELED).toBeGreaterThanOrEqual(1);

    const retry = await stack.api.client.post(`/actions/${action.id}/retry`);
    expect(retry.status).toBe(409);
    const again = await stack.api.client.post(`/actions/${action.id}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/CANCELED; a finished action cannot be canceled/);
    expect((await stack.api.client.delete(`/actions/${action.id}`)).status).toBe(204);
  });

  it('gives a failing occurrence no retry once a cancel is asked for: the attempt it covered ends CANCELED', async () => {
    stack.receiver.holdNext(1); // the first attempt hangs until its timeout: the cancel comes while it runs
    stack.receiver.failNext(5, 500);
    const action = await create(httpAction('/failing', { executionTime: Date.now(), data: { url: stack.receiver.url('/failing'), timeoutMs: 2_000 } }));
    await waitUntil('the first attempt to call', () => stack.receiver.callsTo('/failing').length === 1);

    const cancel = await stack.api.client.post(`/actions/${action.id}/cancel`);
    // 202 while the attempt runs; 200 if, on a very busy machine, it already failed and waits for a retry it will not get.
    expect([202, 200]).toContain(cancel.status);
    const callsWhenAnswered = stack.receiver.callsTo('/failing').length;
    const canceled = await reaches(action.id, 'CANCELED');
    expect(canceled.lastError).not.toBeNull();
    // Two sweeps since, and no job left: a retry, had one been written, would have been queued and run by now.
    await promotionsSinceNow(stack.worker);
    await waitUntil('no job to be left', async () => (await queuedJobs(stack.api.app)) === 0);
    expect(stack.receiver.callsTo('/failing').length).toBeLessThanOrEqual(callsWhenAnswered + (cancel.status === 202 ? 1 : 0));
    expect(canceled.retryCount).toBe(stack.receiver.callsTo('/failing').length);
    // No attempt started once the cancellation was asked for.
    const entries = await history(action.id);
    const asked = entries.findIndex((e) => e.note?.startsWith('cancel requested') || e.to === 'CANCELED');
    expect(entries.slice(asked).filter((e) => e.to === 'IN_PROGRESS' && e.from === 'PENDING')).toEqual([]);
    expect(entries.at(-1)).toMatchObject({ to: 'CANCELED' });
  });

  it('refuses a malformed cancel (400) and an unknown action (404), changing nothing', async () => {
    const action = await create(httpAction('/untouched', { executionTime: Date.now() + 3_600_000 }));
    for (const body of [{ reason: 'x' }, { note: 42 }, { note: 'x'.repeat(501) }, { note: null }]) {
      const response = await stack.api.client.post(`/actions/${action.id}/cancel`, body);
      expect(response.status).toBe(400);
    }
    expect(await read(action.id)).toMatchObject({ status: 'PENDING', cancelRequestedAt: null });
    expect(await history(action.id)).toHaveLength(1);
    expect((await stack.api.client.post('/actions/00000000-0000-4000-8000-000000000000/cancel')).status).toBe(404);
    expect((await stack.api.client.post('/actions/nope/cancel')).status).toBe(400);
  });

  it('racing attempts of per-second crons with real workers: each ends CANCELED and no attempt starts after it', async () => {
    const actions = await Promise.all(Array.from({ length: 12 }, (_, i) => create(httpAction(`/race-${i}`, { repeat: true, cron: EVERY_SECOND }))));
    await Promise.all(
      actions.map(async (action, i) => {
        await sleep(1_000 + ((i * 173) % 1_500)); // spread over an occurrence's run, its completion and the next claim
        const response = await stack.api.client.post(`/actions/${action.id}/cancel`);
        expect([200, 202]).toContain(response.status);
      }),
    );
    for (const [i, action] of actions.entries()) {
      await reaches(action.id, 'CANCELED');
      const entries = await history(action.id);
      const canceledAt = Date.parse(entries.at(-1)!.at);
      expect(entries.at(-1)!.to).toBe('CANCELED');
      expect(entries.filter((e) => e.to === 'CANCELED')).toHaveLength(1);
      // Every call the receiver saw arrived before the action was CANCELED.
      for (const call of stack.receiver.callsTo(`/race-${i}`)) expect(call.at).toBeLessThanOrEqual(canceledAt);
    }
    const seen = actions.map((_, i) => stack.receiver.callsTo(`/race-${i}`).length);
    await waitUntil('no job to be left', async () => (await queuedJobs(stack.api.app)) === 0);
    await promotionsSinceNow(stack.worker);
    expect(actions.map((_, i) => stack.receiver.callsTo(`/race-${i}`).length)).toEqual(seen);
  });
});
