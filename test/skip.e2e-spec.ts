import { Scrape, waitUntil } from '@app/testing';
import { createCalling, readAction, useRunningStack } from './support/running-stack';
import { subscribe, verifiedEvent } from './support/webhooks';

/** Every occurrence of a per-second cron is due within this window, so the action is always locked. */
const LOCK_WINDOW_MS = 1_500;
const DAY_MS = 86_400_000;

describe('POST /actions/:id/skip: the next occurrences do not run, visibly, and are no executions', () => {
  const stack = useRunningStack({ api: { LOCK_WINDOW_MS: String(LOCK_WINDOW_MS) } });

  const create = (path: string, extra: object) => createCalling(stack, path, extra);
  const read = (id: string) => readAction(stack, id);
  const history = async (id: string) => (await stack.api.client.get(`/actions/${id}/history`)).body as { from: string; to: string; note: string | null }[];
  const skippedNotes = async (id: string) => (await history(id)).map((e) => e.note).filter((note) => note?.startsWith('skipped: '));

  it('skips the next occurrences of a daily action at once: its time moves on, executionRemainder stays, each skip is recorded and counted', async () => {
    const tomorrow = new Date(Math.ceil(Date.now() / 1000) * 1000 + DAY_MS);
    const action = await create('/daily', {
      repeat: true,
      frequency: 'DAILY',
      executionRemainder: 5,
      executionTime: tomorrow.toISOString(),
      callbackUrl: stack.receiver.url('/events'),
    });
    const before = (await Scrape.of(`${stack.api.client.baseUrl}/metrics`)).value('punctual_occurrences_skipped_total', {
      action: 'HTTP_REQUEST',
      reason: 'request',
    });

    const skipped = await stack.api.client.post(`/actions/${action.id}/skip`, { count: 3 });
    expect(skipped.status).toBe(200);
    expect(skipped.body).toMatchObject({ status: 'PENDING', occurrence: 1, executionRemainder: 5 });
    expect(Date.parse(skipped.body.executionTime)).toBe(tomorrow.getTime() + 3 * DAY_MS);
    expect(await read(action.id)).toEqual(skipped.body);
    expect(await skippedNotes(action.id)).toEqual(
      [0, 1, 2].map((day) => `skipped: request, ${new Date(tomorrow.getTime() + day * DAY_MS).toISOString()}`),
    );
    const occurrences = (await stack.api.client.get(`/actions/${action.id}/occurrences?count=2`)).body.occurrences;
    expect(occurrences).toEqual([3, 4].map((day) => new Date(tomorrow.getTime() + day * DAY_MS).toISOString()));
    const after = (await Scrape.of(`${stack.api.client.baseUrl}/metrics`)).value('punctual_occurrences_skipped_total', {
      action: 'HTTP_REQUEST',
      reason: 'request',
    });
    expect(after - before).toBe(3);

    // The skipped occurrences are told to the action's callback in one event, with why and when.
    const [call] = await waitUntil('the skip event at the callback', () =>
      stack.receiver.callsTo('/events').length > 0 ? stack.receiver.callsTo('/events') : null,
    );
    expect(JSON.parse(call.body)).toMatchObject({
      type: 'action.occurrence_skipped',
      data: {
        reason: 'request',
        count: 3,
        skipped: [0, 1, 2].map((day) => new Date(tomorrow.getTime() + day * DAY_MS).toISOString()),
        note: `skipped: request, 3 occurrences from ${tomorrow.toISOString()} on`,
      },
    });
  });

  it('tells a skip of 100 in one event per subscription, listing every skipped time, while the history keeps one entry each', async () => {
    const subscriptions = await Promise.all(
      [1, 2].map((n) => subscribe(stack.api.client, stack.receiver.url(`/hooks-${n}`), { events: ['action.occurrence_skipped'] })),
    );
    const start = new Date(Math.ceil(Date.now() / 1000) * 1000 + DAY_MS);
    const action = await create('/skip-100', { repeat: true, frequency: 'DAILY', executionRemainder: 5, executionTime: start.toISOString() });

    const skipped = await stack.api.client.post(`/actions/${action.id}/skip`, { count: 100 });
    expect(skipped.status).toBe(200);
    expect(Date.parse(skipped.body.executionTime)).toBe(start.getTime() + 100 * DAY_MS);
    const times = Array.from({ length: 100 }, (_, day) => new Date(start.getTime() + day * DAY_MS).toISOString());
    expect(await skippedNotes(action.id)).toEqual(times.map((time) => `skipped: request, ${time}`));
    // The deliveries are written with the skip, in its statement: one per subscription, however many occurrences.
    const [{ deliveries }] = await stack.api.db.query(
      `SELECT count(*)::int AS deliveries FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE e.action_id = $1`,
      [action.id],
    );
    expect(deliveries).toBe(2);

    for (const [n, subscription] of subscriptions.entries()) {
      const calls = await waitUntil(`the event at subscription ${n + 1}`, () =>
        stack.receiver.callsTo(`/hooks-${n + 1}`).length > 0 ? stack.receiver.callsTo(`/hooks-${n + 1}`) : null,
      );
      expect(calls).toHaveLength(1);
      const event = verifiedEvent(calls[0], subscription.secret);
      expect(event.type).toBe('action.occurrence_skipped');
      expect(event.data).toMatchObject({ reason: 'request', count: 100, skipped: times, occurrence: 1, attempt: 0 });
      expect(event.data.action).toMatchObject({ id: action.id, executionTime: skipped.body.executionTime });
    }
    await Promise.all(subscriptions.map((subscription) => stack.api.client.delete(`/webhooks/${subscription.id}`)));
  });

  it('lets a locked occurrence of a per-second cron run, then skips the next ones: three runs in all, two skipped', async () => {
    const action = await create('/cron', { repeat: true, cron: '* * * * * *', executionRemainder: 3 });
    const answer = await stack.api.client.post(`/actions/${action.id}/skip`, { count: 2 });
    expect(answer.status).toBe(200);
    const done = await waitUntil(
      'the cron to complete',
      async () => {
        const current = await read(action.id);
        return current.status === 'COMPLETED' ? current : null;
      },
      20_000,
    );
    expect(done.executionRemainder).toBe(0);
    expect(stack.receiver.callsTo('/cron')).toHaveLength(3);
    const notes = await skippedNotes(action.id);
    expect(notes).toHaveLength(2);
    const [first, second] = notes.map((note) => Date.parse(note!.slice('skipped: request, '.length)));
    expect(second - first).toBe(1_000);
  });

  it('refuses a one-off or final action (409), a bad count (400) and an unknown id (404), changing nothing', async () => {
    const oneOff = await create('/once', { executionTime: Date.now() + 3_600_000 });
    const refused = await stack.api.client.post(`/actions/${oneOff.id}/skip`, {});
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/only the occurrences of a repeating action can be skipped/);

    const daily = await create('/bad-count', { repeat: true, frequency: 'DAILY', executionRemainder: 2, executionTime: Date.now() + DAY_MS });
    const unchanged = await read(daily.id);
    for (const body of [{ count: 0 }, { count: 101 }, { count: 1.5 }, { count: '2' }, { count: null }, { count: 1, note: 'x' }]) {
      const bad = await stack.api.client.post(`/actions/${daily.id}/skip`, body);
      expect([JSON.stringify(body), bad.status]).toEqual([JSON.stringify(body), 400]);
    }
    expect(await read(daily.id)).toEqual(unchanged);
    expect(await skippedNotes(daily.id)).toEqual([]);

    expect((await stack.api.client.post(`/actions/${daily.id}/cancel`, {})).status).toBe(200);
    expect((await stack.api.client.post(`/actions/${daily.id}/skip`, {})).status).toBe(409);
    expect((await stack.api.client.post('/actions/00000000-0000-4000-8000-000000000000/skip', {})).status).toBe(404);
  });
});
