import { ActionQueues } from '@app/scheduling';
import { waitUntil } from '@app/testing';
import { promotionsSinceNow } from './support/loop-runs';
import { queuedJobs } from './support/queue-state';
import { createCalling, readAction, useRunningStack } from './support/running-stack';

/** Every occurrence of a per-second cron is due within this window, so the action is always locked. */
const LOCK_WINDOW_MS = 1_500;
const EVERY_SECOND = '* * * * * *';

describe('POST /actions/:id/pause and /resume: an owner holds and releases a schedule, also inside the lock window', () => {
  const stack = useRunningStack({ api: { LOCK_WINDOW_MS: String(LOCK_WINDOW_MS) } });

  const create = (path: string, extra: object) => createCalling(stack, path, extra);
  const read = (id: string) => readAction(stack, id);
  const notes = async (id: string) => ((await stack.api.client.get(`/actions/${id}/history`)).body as { note: string | null }[]).map((e) => e.note);
  /** Waits until the covered occurrence ended, the held one's job was dropped, and two sweeps saw it held: nothing can run after. */
  const heldForGood = async (id: string) => {
    await waitUntil('the held occurrence to wait with no job', async () => {
      const action = await read(id);
      return action.status === 'PENDING' && action.paused === true && (await queuedJobs(stack.api.app)) === 0;
    });
    await promotionsSinceNow(stack.worker);
  };

  it('pauses a per-second cron: the covered occurrence finishes, no later one starts; resume runs it again', async () => {
    const action = await create('/cron', { repeat: true, cron: EVERY_SECOND });
    await waitUntil('the cron to have run twice', () => stack.receiver.callsTo('/cron').length >= 2);

    const paused = await stack.api.client.post(`/actions/${action.id}/pause`, { note: 'maintenance' });
    expect(paused.status).toBe(200);
    expect(paused.body.paused).toBe(true);
    const callsWhenAnswered = stack.receiver.callsTo('/cron').length;
    // The occurrence the lock window covered may still run; then nothing does.
    await heldForGood(action.id);
    expect(stack.receiver.callsTo('/cron').length - callsWhenAnswered).toBeLessThanOrEqual(1);
    expect((await notes(action.id)).filter((note) => note?.startsWith('paused: maintenance'))).toHaveLength(1);

    const again = await stack.api.client.post(`/actions/${action.id}/pause`, {});
    expect(again.status).toBe(200);
    expect((await notes(action.id)).filter((note) => note?.startsWith('paused'))).toHaveLength(1);

    const callsWhenPaused = stack.receiver.callsTo('/cron').length;
    const resumed = await stack.api.client.post(`/actions/${action.id}/resume`);
    expect(resumed.status).toBe(200);
    expect(resumed.body.paused).toBe(false);
    await waitUntil('the cron to run again', () => stack.receiver.callsTo('/cron').length > callsWhenPaused);
    expect((await notes(action.id)).some((note) => note?.startsWith('resumed'))).toBe(true);
    expect((await stack.api.client.post(`/actions/${action.id}/cancel`, {})).status).toBe(202);
  });

  it('holds a one-off action paused outside the lock window past its time; resume runs it once, now', async () => {
    const action = await create('/one-off', { executionTime: Date.now() + LOCK_WINDOW_MS + 1_000 });
    const paused = await stack.api.client.post(`/actions/${action.id}/pause`, {});
    expect(paused.body).toMatchObject({ status: 'PENDING', paused: true });
    await waitUntil('its due time to pass', () => Date.now() > Date.parse(action.executionTime));
    await promotionsSinceNow(stack.worker); // sweeps after it was due: it would have been queued unless held
    expect(stack.receiver.callsTo('/one-off')).toHaveLength(0);
    expect(await read(action.id)).toMatchObject({ status: 'PENDING', paused: true });

    const resumed = await stack.api.client.post(`/actions/${action.id}/resume`);
    expect(resumed.status).toBe(200);
    expect(resumed.body.paused).toBe(false);
    await waitUntil('the action to complete', async () => (await read(action.id)).status === 'COMPLETED');
    expect(stack.receiver.callsTo('/one-off')).toHaveLength(1);
    expect(await notes(action.id)).toContain('resumed; occurrence 1 runs now');
  });

  it('queues no job for a held occurrence: a patch while paused gives it a new revision, and only the resume queues it', async () => {
    const jobsOf = async (id: string) =>
      (await stack.api.app.get(ActionQueues).queueFor('HTTP_REQUEST').getJobs(['waiting', 'delayed', 'prioritized'])).filter(
        (job) => job.data.actionId === id,
      );
    const action = await create('/held', { executionTime: Date.now() + LOCK_WINDOW_MS + 5_000 });
    expect(await jobsOf(action.id)).toHaveLength(1);
    expect((await stack.api.client.post(`/actions/${action.id}/pause`, {})).body).toMatchObject({ paused: true });

    const patched = await stack.api.client.patch(`/actions/${action.id}`, { executionTime: Date.now() + LOCK_WINDOW_MS + 4_000 });
    expect(patched.status).toBe(200);
    // The job of the revision before the patch is gone, and none was queued for the held one.
    expect(await jobsOf(action.id)).toHaveLength(0);

    expect((await stack.api.client.post(`/actions/${action.id}/resume`)).status).toBe(200);
    expect(await jobsOf(action.id)).toHaveLength(1);
    expect([200, 202]).toContain((await stack.api.client.post(`/actions/${action.id}/cancel`, {})).status);
  });

  it('refuses a final action (409), an unknown id (404) and a malformed body (400), changing nothing', async () => {
    const action = await create('/final', { executionTime: Date.now() + 3_600_000 });
    const before = await notes(action.id);
    for (const body of [{ note: 5 }, { note: 'x', extra: true }, { note: 'a'.repeat(501) }]) {
      expect((await stack.api.client.post(`/actions/${action.id}/pause`, body)).status).toBe(400);
    }
    expect(await notes(action.id)).toEqual(before);
    expect(await read(action.id)).toMatchObject({ paused: false });

    expect((await stack.api.client.post(`/actions/${action.id}/cancel`, {})).status).toBe(200);
    const canceled = await read(action.id);
    for (const route of ['pause', 'resume']) {
      const refused = await stack.api.client.post(`/actions/${action.id}/${route}`, {});
      expect(refused.status).toBe(409);
      expect(refused.body.message).toMatch(/CANCELED; a finished action cannot be (paused|resumed)/);
    }
    expect(await read(action.id)).toEqual(canceled);
    expect((await stack.api.client.post('/actions/00000000-0000-4000-8000-000000000000/pause', {})).status).toBe(404);
  });

  it('resolves concurrent pauses and resumes of a running cron in Postgres: the last pause holds, and nothing runs after it', async () => {
    const action = await create('/race', { repeat: true, cron: EVERY_SECOND });
    await waitUntil('the cron to have run', () => stack.receiver.callsTo('/race').length >= 1);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => stack.api.client.post(`/actions/${action.id}/${i % 2 === 0 ? 'pause' : 'resume'}`, {})),
    );
    for (const answer of answers) {
      // A change that keeps losing to others is told to try again; nothing is half written either way.
      if (answer.status !== 200) expect(answer.body).toMatchObject({ statusCode: 409, message: expect.stringContaining('try again') });
    }
    await waitUntil('a last pause to be accepted', async () => (await stack.api.client.post(`/actions/${action.id}/pause`, {})).status === 200);
    const callsWhenPaused = stack.receiver.callsTo('/race').length;
    await heldForGood(action.id);
    expect(stack.receiver.callsTo('/race').length - callsWhenPaused).toBeLessThanOrEqual(1);
    expect((await stack.api.client.post(`/actions/${action.id}/cancel`, {})).status).toBe(200);
  });
});
