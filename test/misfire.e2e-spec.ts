import { waitUntil } from '@app/testing';
import { useRunningStack } from './support/running-stack';
import { subscribe, verifiedEvent } from './support/webhooks';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** A small cap, so that a catch-up past it is quick to watch; the pace is the default MIN_REPEAT_INTERVAL_MS. */
const MAX_CATCH_UP = 3;
const MIN_REPEAT_INTERVAL_MS = 1_000;

describe('Misfire policies: a recurring action whose workers were down for three hours', () => {
  const catchUpCap = { MAX_CATCH_UP: String(MAX_CATCH_UP) };
  const stack = useRunningStack({ api: catchUpCap, worker: catchUpCap });

  const history = async (id: string) => (await stack.api.client.get(`/actions/${id}/history`)).body as { from: string; to: string; note: string | null }[];
  const skipEvents = (id: string): Promise<{ skipped: string[]; count: number }[]> =>
    stack.api.db.query(`SELECT skipped, skipped_count AS count FROM webhook_events WHERE action_id = $1 AND type = 'action.occurrence_skipped'`, [id]);
  const settledAfterNow = (id: string, timeoutMs?: number) =>
    waitUntil(
      'the action to wait for its next scheduled time',
      async () => {
        const current = (await stack.api.client.get(`/actions/${id}`)).body;
        return current.status === 'PENDING' && new Date(current.executionTime).getTime() > Date.now() ? current : null;
      },
      timeoutMs,
    );

  it.each([
    // policy, runs now, executions left afterwards
    ['RUN_ONCE', 2, 8],
    ['RUN_ALL', 4, 6],
    ['SKIP', 1, 9],
  ])('%s: %i run(s), then the first hourly time after now', async (misfirePolicy, runs, left) => {
    const first = Date.now() - 3 * HOUR - 5 * 60_000; // due 3 h 5 min ago: three more hourly times have passed since
    const path = `/misfire-${misfirePolicy}`;
    const body = {
      action: 'HTTP_REQUEST',
      executionTime: first,
      data: { url: stack.receiver.url(path) },
      repeat: true,
      frequency: 'HOURLY',
      executionRemainder: 10,
      misfirePolicy,
    };
    const action = (await stack.api.client.post('/actions', body)).body;
    expect(action.misfirePolicy).toBe(misfirePolicy);
    const settled = await settledAfterNow(action.id);
    expect(stack.receiver.callsTo(path)).toHaveLength(runs);
    expect(settled.executionRemainder).toBe(left);
    expect(settled.executionTime).toBe(new Date(first + 4 * HOUR).toISOString());
    expect(new Set(stack.receiver.callsTo(path).map((c) => c.headers['idempotency-key'])).size).toBe(runs);
  });

  it('SKIP tells of the three missed occurrences in one event, listing their times', async () => {
    const first = Date.now() - 3 * HOUR - 5 * 60_000;
    const action = (
      await stack.api.client.post('/actions', {
        action: 'HTTP_REQUEST',
        executionTime: first,
        data: { url: stack.receiver.url('/skip-run') },
        callbackUrl: stack.receiver.url('/skip-events'),
        repeat: true,
        frequency: 'HOURLY',
        executionRemainder: 10,
        misfirePolicy: 'SKIP',
      })
    ).body;
    await settledAfterNow(action.id);
    const missed = [1, 2, 3].map((hours) => new Date(first + hours * HOUR).toISOString());
    expect(await skipEvents(action.id)).toEqual([{ skipped: missed, count: 3 }]);
    const skipped = await waitUntil('the skip event at the callback', () => {
      const events = stack.receiver.callsTo('/skip-events').map((call) => JSON.parse(call.body));
      return events.find((event) => event.type === 'action.occurrence_skipped');
    });
    expect(skipped.data).toMatchObject({ reason: 'misfire', count: 3, skipped: missed, attempt: 0 });
    expect((await history(action.id)).filter((entry) => entry.note?.startsWith('skipped: misfire'))).toHaveLength(3);
  });

  it('a resume under SKIP that drops four occurrences tells a subscription once', async () => {
    const subscription = await subscribe(stack.api.client, stack.receiver.url('/resume-hook'), { events: ['action.occurrence_skipped'] });
    const action = (
      await stack.api.client.post('/actions', {
        action: 'HTTP_REQUEST',
        executionTime: Date.now() + HOUR,
        data: { url: stack.receiver.url('/resume-run') },
        repeat: true,
        frequency: 'HOURLY',
        executionRemainder: 10,
        misfirePolicy: 'SKIP',
      })
    ).body;
    expect((await stack.api.client.post(`/actions/${action.id}/pause`, {})).status).toBe(200);
    // The pause lasted four hours: its held occurrence and the three after it have passed.
    const held = Date.now() - 3 * HOUR - 5 * 60_000;
    await stack.api.db.query(`UPDATE actions SET execution_time = $2, next_attempt_at = $2, schedule_anchor = $2 WHERE id = $1`, [
      action.id,
      new Date(held),
    ]);

    const resumed = await stack.api.client.post(`/actions/${action.id}/resume`);
    expect(resumed.status).toBe(200);
    expect(resumed.body.executionTime).toBe(new Date(held + 4 * HOUR).toISOString());
    const dropped = [0, 1, 2, 3].map((hours) => new Date(held + hours * HOUR).toISOString());
    expect(await skipEvents(action.id)).toEqual([{ skipped: dropped, count: 4 }]);
    const [call] = await waitUntil('the event at the subscription', () => {
      const calls = stack.receiver.callsTo('/resume-hook');
      return calls.length > 0 ? calls : null;
    });
    expect(verifiedEvent(call, subscription.secret).data).toMatchObject({ reason: 'misfire', count: 4, skipped: dropped });
    expect(stack.receiver.callsTo('/resume-hook')).toHaveLength(1);
    expect(stack.receiver.callsTo('/resume-run')).toHaveLength(0);
    expect((await stack.api.client.delete(`/webhooks/${subscription.id}`)).status).toBe(204);
  });

  it(`RUN_ALL catches up on a cron started 200 days ago: the latest ${MAX_CATCH_UP} missed days, paced, the older ones skipped in one event`, async () => {
    const inAnHour = new Date(Date.now() + HOUR);
    const action = (
      await stack.api.client.post('/actions', {
        action: 'HTTP_REQUEST',
        executionTime: Date.now() - 200 * DAY,
        data: { url: stack.receiver.url('/catch-up') },
        callbackUrl: stack.receiver.url('/catch-up-events'),
        repeat: true,
        cron: `${inAnHour.getUTCMinutes()} ${inAnHour.getUTCHours()} * * *`,
        misfirePolicy: 'RUN_ALL',
      })
    ).body;
    const first = Date.parse(action.executionTime);
    const next = Date.parse((await settledAfterNow(action.id, 30_000)).executionTime);

    // The occurrence it was created for runs, then the latest missed days, each at least MIN_REPEAT_INTERVAL_MS after the run before it.
    const calls = stack.receiver.callsTo('/catch-up');
    expect(calls).toHaveLength(1 + MAX_CATCH_UP);
    for (let i = 1; i < calls.length; i += 1) expect(calls[i].at - calls[i - 1].at).toBeGreaterThanOrEqual(MIN_REPEAT_INTERVAL_MS);
    const entries = await history(action.id);
    const caughtUp = entries.flatMap((entry) => /missed occurrence (\S+) runs next/.exec(entry.note ?? '')?.[1] ?? []);
    expect(caughtUp).toEqual([3, 2, 1].map((days) => new Date(next - days * DAY).toISOString()));

    // Every older missed day has its history entry (one each for the first 100), and all of them one event.
    const count = (next - MAX_CATCH_UP * DAY - first) / DAY - 1;
    const listed = Array.from({ length: 100 }, (_, day) => new Date(first + (day + 1) * DAY).toISOString());
    expect(await skipEvents(action.id)).toEqual([{ skipped: listed, count }]);
    const skipNotes = entries.flatMap((entry) => (entry.note?.startsWith('skipped: misfire') ? [entry.note] : []));
    expect(skipNotes).toEqual([
      ...listed.map((time) => `skipped: misfire, ${time}`),
      `skipped: misfire, ${count - 100} occurrences from ${new Date(first + 101 * DAY).toISOString()} on`,
    ]);
    const event = await waitUntil('the skip event at the callback', () =>
      stack.receiver
        .callsTo('/catch-up-events')
        .map((call) => JSON.parse(call.body))
        .find((sent) => sent.type === 'action.occurrence_skipped'),
    );
    expect(event.data).toMatchObject({ reason: 'misfire', count, skipped: listed });
  });
});
