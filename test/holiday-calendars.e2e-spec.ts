import { Scrape, waitUntil } from '@app/testing';
import { storedCounts } from './support/fixtures';
import { createCalling, readAction, useRunningStack } from './support/running-stack';
import { workerHttpUrl } from './support/worker-test-app';
import { addJobByHand } from './support/queue-state';

const DAY_MS = 86_400_000;
const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);

describe('Calendars: named dates that the schedules naming them skip (contract §12)', () => {
  const stack = useRunningStack();
  const http = () => stack.api.client;
  const calendarCount = async () =>
    (await stack.api.db.query(`SELECT (SELECT count(*) FROM calendars)::int AS calendars, (SELECT count(*) FROM calendar_dates)::int AS dates`))[0];
  const history = async (id: string) =>
    (await http().get(`/actions/${id}/history`)).body as { from: string; to: string; attempt: number; note: string | null }[];

  it('PUT creates a calendar and replaces it; GET and the list answer it, its dates in order and each once', async () => {
    const created = await http().put('/calendars/de-holidays', { dates: ['2027-12-25', '2027-01-01', '2027-12-25'], description: 'Public holidays' });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      name: 'de-holidays',
      dates: ['2027-01-01', '2027-12-25'],
      description: 'Public holidays',
      updatedAt: expect.any(String),
    });
    expect((await http().get('/calendars/de-holidays')).body).toEqual(created.body);

    const replaced = await http().put('/calendars/de-holidays', { dates: ['2027-12-26'] });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ dates: ['2027-12-26'], description: null });
    expect(Date.parse(replaced.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.body.updatedAt));

    await http().put('/calendars/a_first', { dates: [] });
    const list = await http().get('/calendars');
    expect(list.status).toBe(200);
    expect(list.body.items.map((c: { name: string }) => c.name)).toEqual(['a_first', 'de-holidays']);
    expect(list.body.items[1]).toEqual(replaced.body);
  });

  it('refuses a bad name, a date that does not exist, too many dates, an unknown field, a body over 256 KiB and no signature, storing nothing', async () => {
    const before = await calendarCount();
    const refusals: [string, unknown, number, RegExp][] = [
      ['/calendars/has%20space', { dates: [] }, 400, /name must be 1–64 characters/],
      [`/calendars/${'x'.repeat(65)}`, { dates: [] }, 400, /name must be 1–64 characters/],
      ['/calendars/bad-date', { dates: ['2027-02-30'] }, 400, /each value in dates must be a date that exists/],
      ['/calendars/bad-date', { dates: ['2027-12-25T00:00:00Z'] }, 400, /each value in dates must be a date that exists/],
      ['/calendars/no-dates', {}, 400, /^\["dates is required"\]$/],
      ['/calendars/extra', { dates: [], owner: 'me' }, 400, /property owner should not exist/],
      ['/calendars/long', { dates: [], description: 'd'.repeat(1001) }, 400, /description must be shorter than or equal to 1000 characters/],
      ['/calendars/too-many', { dates: Array.from({ length: 5001 }, (_, i) => dayOf(Date.UTC(2030, 0, 1) + i * DAY_MS)) }, 400, /at most 5000 dates/],
      ['/calendars/huge', { dates: [], description: 'x'.repeat(300 * 1024) }, 413, /exceeds the limit of 262144 bytes/],
    ];
    for (const [path, body, status, message] of refusals) {
      const answer = await http().put(path, body);
      expect([path, answer.status]).toEqual([path, status]);
      expect(JSON.stringify(answer.body.message)).toMatch(message);
    }
    expect((await http().put('/calendars/unsigned', { dates: [] }, { unsigned: true })).status).toBe(401);
    expect(await calendarCount()).toEqual(before);
    // The most a calendar holds is accepted, pretty-printed.
    const most = Array.from({ length: 5000 }, (_, i) => dayOf(Date.UTC(2030, 0, 1) + i * DAY_MS));
    const full = await http().request('PUT', '/calendars/five-thousand', undefined, { rawBody: JSON.stringify({ dates: most }, null, 2) });
    expect(full.status).toBe(200);
    expect(full.body.dates).toHaveLength(5000);
    expect((await http().delete('/calendars/five-thousand')).status).toBe(204);
  });

  it('is named by repeating actions only, and only when it exists: 400s store nothing; DELETE is 409 while an action names it', async () => {
    await http().put('/calendars/office', { dates: ['2030-12-24'] });
    const before = await storedCounts(stack.api.db);
    const daily = {
      action: 'HTTP_REQUEST',
      data: { url: stack.receiver.url('/never') },
      repeat: true,
      frequency: 'DAILY',
      executionRemainder: 3,
      executionTime: Date.now() + DAY_MS,
    };
    const refused: [string, unknown, RegExp][] = [
      ['/actions', { ...daily, calendar: 'nowhere' }, /calendar: no calendar is named nowhere; create it first with PUT \/calendars\/nowhere/],
      ['/actions', { ...daily, calendar: 'bad name' }, /calendar must be a calendar's name/],
      ['/actions', { ...daily, repeat: false, frequency: undefined, executionRemainder: undefined, calendar: 'office' }, /calendar needs repeat: true/],
      [
        '/actions/batch',
        {
          items: [
            { ...daily, calendar: 'office' },
            { ...daily, calendar: 'nowhere' },
          ],
        },
        /items\.1\.calendar: no calendar is named nowhere/,
      ],
    ];
    for (const [path, body, message] of refused) {
      const answer = await http().post(path, body);
      expect([path, answer.status]).toEqual([path, 400]);
      expect(JSON.stringify(answer.body.message)).toMatch(message);
    }
    expect(await storedCounts(stack.api.db)).toEqual(before);

    const created = await http().post('/actions', { ...daily, calendar: 'office' });
    expect(created.status).toBe(201);
    expect(created.body.calendar).toBe('office');
    const unknownChange = await http().patch(`/actions/${created.body.id}`, { calendar: 'nowhere' });
    expect(unknownChange.status).toBe(400);
    expect((await readAction(stack, created.body.id)).calendar).toBe('office');

    const inUse = await http().delete('/calendars/office');
    expect(inUse.status).toBe(409);
    expect(inUse.body.message).toMatch(/Calendar office is named by 1 action\(s\); set their calendar to null/);
    expect((await http().get('/calendars/office')).status).toBe(200);

    const cleared = await http().patch(`/actions/${created.body.id}`, { calendar: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.calendar).toBeNull();
    expect((await http().delete('/calendars/office')).status).toBe(204);
    expect((await http().delete('/calendars/office')).status).toBe(404);
    expect((await http().get('/calendars/office')).status).toBe(404);
  });

  it("leaves its dates out of previews and occurrences, read in the action's zone", async () => {
    // 09:00 in Berlin is 08:00Z in winter: Christmas Day and Boxing Day do not run, the 24th and 27th do.
    await http().put('/calendars/christmas', { dates: ['2030-12-25', '2030-12-26'] });
    const body = {
      action: 'HTTP_REQUEST',
      data: { url: stack.receiver.url('/never') },
      repeat: true,
      frequency: 'DAILY',
      executionRemainder: 3,
      timezone: 'Europe/Berlin',
      executionTime: '2030-12-24T08:00:00.000Z',
      calendar: 'christmas',
    };
    const expected = ['2030-12-24T08:00:00.000Z', '2030-12-27T08:00:00.000Z', '2030-12-28T08:00:00.000Z'];
    const preview = await http().post('/actions/preview?count=5', body);
    expect(preview.status).toBe(200);
    expect(preview.body.occurrences).toEqual(expected);
    const created = await http().post('/actions', body);
    expect((await http().get(`/actions/${created.body.id}/occurrences?count=5`)).body.occurrences).toEqual(expected);
    // A change of the calendar shows at once, without a change of the action.
    await http().put('/calendars/christmas', { dates: ['2030-12-27'] });
    expect((await http().get(`/actions/${created.body.id}/occurrences?count=5`)).body.occurrences).toEqual([
      '2030-12-24T08:00:00.000Z',
      '2030-12-25T08:00:00.000Z',
      '2030-12-26T08:00:00.000Z',
    ]);
    expect((await http().post('/actions/preview', { ...body, calendar: 'nowhere' })).status).toBe(400);
  });

  it('skips every occurrence due on its dates, visibly and without consuming a run, and a change applies to the next occurrence without touching the action', async () => {
    const now = Date.now();
    await http().put('/calendars/closed-today', { dates: [dayOf(now - DAY_MS), dayOf(now), dayOf(now + DAY_MS)] });
    // The worker skips an occurrence due on a date of the calendar, and counts it.
    const skippedMetric = async () =>
      (await Scrape.of(`${workerHttpUrl(stack.worker)}/metrics`)).value('punctual_occurrences_skipped_total', {
        action: 'HTTP_REQUEST',
        reason: 'calendar',
      });
    const skippedBefore = await skippedMetric();
    const action = await createCalling(stack, '/closed', {
      repeat: true,
      cron: '* * * * * *',
      executionRemainder: 2,
      calendar: 'closed-today',
      callbackUrl: stack.receiver.url('/events'),
    });
    await waitUntil(
      'three occurrences skipped for the calendar',
      async () => (await history(action.id)).filter((e) => /is a date of calendar closed-today; next at/.test(e.note ?? '')).length >= 3,
      15_000,
    );
    // One entry per skipped occurrence: its own, not a second one listing it as skipped.
    expect((await history(action.id)).filter((e) => e.note?.startsWith('skipped: calendar'))).toEqual([]);
    expect(stack.receiver.callsTo('/closed')).toHaveLength(0);
    const skipping = await readAction(stack, action.id);
    expect(skipping).toMatchObject({ status: 'PENDING', occurrence: 1, executionRemainder: 2 });
    expect((await history(action.id)).some((e) => e.to === 'IN_PROGRESS')).toBe(false);
    expect(await skippedMetric()).toBeGreaterThanOrEqual(skippedBefore + 3);
    await waitUntil('skip events at the callback', () => stack.receiver.callsTo('/events').length >= 1);
    const event = JSON.parse(stack.receiver.callsTo('/events')[0].body) as { type: string; data: { reason: string } };
    expect([event.type, event.data.reason]).toEqual(['action.occurrence_skipped', 'calendar']);

    // The change writes only the calendar; the next occurrence due runs.
    await http().put('/calendars/closed-today', { dates: [] });
    const done = await waitUntil(
      'both runs after the calendar changed',
      async () => {
        const current = await readAction(stack, action.id);
        return current.status === 'COMPLETED' ? current : null;
      },
      15_000,
    );
    expect(done).toMatchObject({ occurrence: 2, executionRemainder: 0 });
    expect(stack.receiver.callsTo('/closed')).toHaveLength(2);
  });

  it('is checked at every attempt: a date added while an occurrence waits for its retry skips it there, and the next occurrence runs afresh', async () => {
    await http().put('/calendars/closed-later', { dates: [] });
    // The case before it may still be delivering its events to the same receiver.
    stack.receiver.failNextTo('/closed-later', 1);
    const executionTime = Date.now();
    const action = await createCalling(stack, '/closed-later', {
      executionTime,
      repeat: true,
      frequency: 'DAILY',
      executionRemainder: 2,
      calendar: 'closed-later',
      retryPolicy: { maxRetries: 3, backoff: { type: 'fixed', delayMs: 3_600_000 } },
    });
    await waitUntil('the first attempt to fail', async () => (await readAction(stack, action.id)).retryCount === 1, 30_000);
    await http().put('/calendars/closed-later', { dates: [dayOf(executionTime)] });
    // The retry is made due now rather than in an hour: only its claim can tell whether the date is honoured.
    await stack.api.db.query(`UPDATE actions SET next_attempt_at = now() WHERE id = $1`, [action.id]);
    await addJobByHand(stack.api.app, action, `retry-now-${action.id}`);

    const moved = await waitUntil('the retry to be skipped for the calendar', async () => {
      const current = await readAction(stack, action.id);
      return new Date(current.executionTime).getTime() === executionTime + DAY_MS ? current : null;
    });
    expect(moved).toMatchObject({ status: 'PENDING', occurrence: 1, retryCount: 0, executionRemainder: 2 });
    expect(stack.receiver.callsTo('/closed-later')).toHaveLength(1);
    expect((await history(action.id)).at(-1)!.note).toMatch(/is a date of calendar closed-later/);
  });

  it('is checked at a manual retry as at any attempt: a FAILED occurrence whose date was added since is skipped, not run', async () => {
    await http().put('/calendars/closed-after-failure', { dates: [] });
    const executionTime = Date.now() + 3_600_000;
    const action = await createCalling(stack, '/closed-after-failure', {
      executionTime,
      repeat: true,
      frequency: 'DAILY',
      executionRemainder: 2,
      calendar: 'closed-after-failure',
    });
    await stack.api.db.query(`UPDATE actions SET status = 'FAILED', retry_count = 4, last_error = 'boom' WHERE id = $1`, [action.id]);
    await http().put('/calendars/closed-after-failure', { dates: [dayOf(executionTime)] });
    expect((await http().post(`/actions/${action.id}/retry`)).status).toBe(200);

    const moved = await waitUntil('the retried occurrence to be skipped for the calendar', async () => {
      const current = await readAction(stack, action.id);
      return new Date(current.executionTime).getTime() === executionTime + DAY_MS ? current : null;
    });
    expect(moved).toMatchObject({ status: 'PENDING', occurrence: 1, retryCount: 0, executionRemainder: 2 });
    expect(stack.receiver.callsTo('/closed-after-failure')).toHaveLength(0);
  });

  it('changes without writing any action that names it: the rows keep their version', async () => {
    await http().put('/calendars/shared', { dates: ['2031-01-01'] });
    const daily = { repeat: true, frequency: 'DAILY', executionRemainder: 3, executionTime: Date.now() + DAY_MS, calendar: 'shared' };
    await http().post('/actions/batch', {
      items: Array.from({ length: 20 }, () => ({ action: 'HTTP_REQUEST', data: { url: stack.receiver.url('/never') }, ...daily })),
    });
    const versions = () => stack.api.db.query(`SELECT id, xmin::text AS version FROM actions WHERE calendar = 'shared' ORDER BY id`);
    const before = await versions();
    expect(before).toHaveLength(20);
    expect((await http().put('/calendars/shared', { dates: ['2031-01-01', '2031-12-25'] })).status).toBe(200);
    expect(await versions()).toEqual(before);
  });
});
