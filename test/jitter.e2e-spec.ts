import { waitUntil } from '@app/testing';
import { storedCounts } from './support/fixtures';
import { useRunningStack } from './support/running-stack';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

describe('jitterMs: each occurrence runs within its window after its time, at a delay fixed for it', () => {
  const stack = useRunningStack();

  const body = (path: string, extra: object) => ({ action: 'HTTP_REQUEST', data: { url: stack.receiver.url(path) }, ...extra });
  const occurrences = async (id: string) => (await stack.api.client.get(`/actions/${id}/occurrences?count=5`)).body.occurrences as string[];
  const within = (times: string[], scheduled: number[], jitterMs: number) =>
    times.every((time, i) => Date.parse(time) >= scheduled[i] && Date.parse(time) <= scheduled[i] + jitterMs);

  it('shows the same jittered times in nextAttemptAt, the occurrences and every read; null puts them back at their times', async () => {
    const first = Math.ceil(Date.now() / 1000) * 1000 + DAY_MS;
    const created = await stack.api.client.post(
      '/actions',
      body('/daily', { repeat: true, frequency: 'DAILY', executionRemainder: 10, executionTime: first, jitterMs: HOUR_MS }),
    );
    expect(created.status).toBe(201);
    const action = created.body;
    expect(action.jitterMs).toBe(HOUR_MS);
    const scheduled = [0, 1, 2, 3, 4].map((day) => first + day * DAY_MS);
    const times = await occurrences(action.id);
    expect(within(times, scheduled, HOUR_MS)).toBe(true);
    expect(times[0]).toBe(action.nextAttemptAt);
    expect(new Set(times.map((time, i) => Date.parse(time) - scheduled[i])).size).toBeGreaterThan(1);
    expect(await occurrences(action.id)).toEqual(times);
    expect((await stack.api.client.get(`/actions/${action.id}`)).body.nextAttemptAt).toBe(action.nextAttemptAt);

    const preview = await stack.api.client.post(
      '/actions/preview?count=5',
      body('/daily', { repeat: true, frequency: 'DAILY', executionRemainder: 10, executionTime: first, jitterMs: HOUR_MS }),
    );
    expect(within(preview.body.occurrences, scheduled, HOUR_MS)).toBe(true);

    const cleared = await stack.api.client.patch(`/actions/${action.id}`, { jitterMs: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ jitterMs: null, nextAttemptAt: new Date(first).toISOString() });
    expect(await occurrences(action.id)).toEqual(scheduled.map((time) => new Date(time).toISOString()));
  });

  it('refuses a jitter outside 0 ms to an hour, or not an integer (400), storing nothing', async () => {
    const before = await storedCounts(stack.api.db);
    for (const jitterMs of [-1, HOUR_MS + 1, 1.5, '1000', true]) {
      const refused = await stack.api.client.post('/actions', body('/bad', { executionTime: Date.now() + HOUR_MS, jitterMs }));
      expect([jitterMs, refused.status]).toEqual([jitterMs, 400]);
      expect(JSON.stringify(refused.body.message)).toContain('jitterMs must be an integer of ms from 0 to 3600000');
    }
    expect(await storedCounts(stack.api.db)).toEqual(before);
  });

  it('runs actions due at one instant spread over their window, none before its jittered time', async () => {
    const due = Date.now() + 1_500;
    const created = await Promise.all(
      Array.from({ length: 8 }, (_, i) => stack.api.client.post('/actions', body(`/spread/${i}`, { executionTime: due, jitterMs: 3_000 }))),
    );
    const actions = created.map((response) => response.body as { id: string; nextAttemptAt: string });
    expect(new Set(actions.map((action) => action.nextAttemptAt)).size).toBeGreaterThan(1);
    await waitUntil('every action to have run', () => actions.every((_, i) => stack.receiver.callsTo(`/spread/${i}`).length === 1), 20_000);
    actions.forEach((action, i) => {
      const ranAt = stack.receiver.callsTo(`/spread/${i}`)[0].at;
      expect(Date.parse(action.nextAttemptAt)).toBeGreaterThanOrEqual(due);
      expect(Date.parse(action.nextAttemptAt)).toBeLessThanOrEqual(due + 3_000);
      expect(ranAt).toBeGreaterThanOrEqual(Date.parse(action.nextAttemptAt));
    });
  });
});
