import { waitUntil } from '@app/testing';
import { messageText, storedCounts } from './support/fixtures';
import { queuedJobs } from './support/queue-state';
import { useRunningStack } from './support/running-stack';

/** Cron schedules in time zones, bounded schedules, previews and per-action retry policies, over HTTP with a real stack.worker. */
describe('Calendars', () => {
  const stack = useRunningStack();

  const call = (path: string, extra: object = {}) => ({ action: 'HTTP_REQUEST', data: { url: stack.receiver.url(path) }, ...extra });
  const statusOf = async (id: string) => (await stack.api.client.get(`/actions/${id}`)).body;

  it('a seconds-level cron action runs twice on time, as previewed, then is COMPLETED', async () => {
    const body = call('/cron', { repeat: true, cron: '*/2 * * * * *', executionRemainder: 2 });
    const preview = await stack.api.client.post('/actions/preview?count=5', body);
    expect(preview.status).toBe(200);
    expect(preview.body.occurrences).toHaveLength(2);
    const created = await stack.api.client.post('/actions', body);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ cron: '*/2 * * * * *', timezone: 'UTC', frequency: null, executionRemainder: 2 });
    const planned: string[] = (await stack.api.client.get(`/actions/${created.body.id}/occurrences`)).body.occurrences;
    expect(planned).toHaveLength(2);
    expect(new Date(planned[1]).getTime() - new Date(planned[0]).getTime()).toBe(2000);
    expect(new Date(planned[0]).getUTCSeconds() % 2).toBe(0);

    const done = await waitUntil(
      'COMPLETED',
      async () => ((await statusOf(created.body.id)).status === 'COMPLETED' ? statusOf(created.body.id) : null),
      10_000,
    );
    expect(done).toMatchObject({ occurrence: 2, executionRemainder: 0, executionTime: planned[1] });
    const calls = stack.receiver.callsTo('/cron');
    expect(calls).toHaveLength(2);
    calls.forEach((c, i) => {
      expect(c.at).toBeGreaterThanOrEqual(new Date(planned[i]).getTime());
      expect(c.at).toBeLessThan(new Date(planned[i]).getTime() + 1500);
    });
    expect(calls.map((c) => c.headers['idempotency-key'])).toEqual([`${created.body.id}:1`, `${created.body.id}:2`]);
  });

  it('a daily 09:00 in Berlin keeps its local time across the spring change; an end bounds it', async () => {
    const body = call('/berlin', {
      executionTime: '2027-03-26T09:00:00+01:00',
      repeat: true,
      frequency: 'DAILY',
      executionRemainder: 10,
      timezone: 'Europe/Berlin',
      endAt: '2027-03-29T12:00:00Z',
    });
    const preview = await stack.api.client.post('/actions/preview', body);
    expect(preview.body.occurrences).toEqual([
      '2027-03-26T08:00:00.000Z',
      '2027-03-27T08:00:00.000Z',
      '2027-03-28T07:00:00.000Z',
      '2027-03-29T07:00:00.000Z',
    ]);
    const created = (await stack.api.client.post('/actions', body)).body;
    expect((await stack.api.client.get(`/actions/${created.id}/occurrences?count=2`)).body.occurrences).toEqual(preview.body.occurrences.slice(0, 2));
    const cleared = await stack.api.client.patch(`/actions/${created.id}`, { endAt: null });
    expect(cleared.body.endAt).toBeNull();
    expect((await stack.api.client.get(`/actions/${created.id}/occurrences`)).body.occurrences).toHaveLength(10);
  });

  it('a cron action without executionTime starts at the first cron time from now', async () => {
    const created = (await stack.api.client.post('/actions', call('/hourly', { repeat: true, cron: '0 * * * *', timezone: 'Asia/Kolkata' }))).body;
    const first = new Date(created.executionTime);
    expect(first.getTime()).toBeGreaterThan(Date.now());
    expect(first.getTime()).toBeLessThanOrEqual(Date.now() + 3_600_000);
    expect(first.getUTCMinutes()).toBe(30); // Kolkata is UTC+05:30: a local o'clock is half past in UTC
    expect(created.executionRemainder).toBeNull();
    expect((await stack.api.client.get(`/actions/${created.id}/occurrences?count=100`)).body.occurrences).toHaveLength(100);
  });

  it('a per-action retry policy: FAILED after exactly 1 + maxRetries attempts, with its delays', async () => {
    stack.receiver.failNext(10);
    const retryPolicy = { maxRetries: 2, backoff: { type: 'list', delaysMs: [300, 600] } };
    const created = (await stack.api.client.post('/actions', call('/retry-policy', { executionTime: Date.now(), retryPolicy }))).body;
    expect(created.retryPolicy).toEqual(retryPolicy);
    const failed = await waitUntil('FAILED', async () => ((await statusOf(created.id)).status === 'FAILED' ? statusOf(created.id) : null), 10_000);
    expect(failed.retryCount).toBe(3);
    const at = stack.receiver.callsTo('/retry-policy').map((c) => c.at);
    expect(at).toHaveLength(3);
    expect(at[1] - at[0]).toBeGreaterThanOrEqual(300);
    expect(at[2] - at[1]).toBeGreaterThanOrEqual(600);
    stack.receiver.failNext(0);
  });

  it.each<[string, object, RegExp]>([
    ['a bad cron', { repeat: true, cron: '61 * * * *' }, /cron "61 \* \* \* \*" is not valid/],
    [
      'a cron with seven fields',
      { repeat: true, cron: '* * * * * * *' },
      /^cron "\* \* \* \* \* \* \*" is not valid: it has 7 fields; Punctual reads 5 fields \(minute hour day-of-month month day-of-week\), 6 \(second first\)/,
    ],
    ['a cron that never matches', { repeat: true, cron: '0 0 30 2 *' }, /cron "0 0 30 2 \*" never matches/],
    ['an unknown zone', { repeat: true, cron: '0 9 * * *', timezone: 'Mars/Olympus' }, /timezone "Mars\/Olympus" is not a known IANA time zone/],
    [
      'both cron and frequency',
      { repeat: true, cron: '0 9 * * *', frequency: 'DAILY', executionRemainder: 2, executionTime: Date.now() },
      /either frequency or cron/,
    ],
    ['cron without repeat', { cron: '0 9 * * *', executionTime: Date.now() }, /cron needs repeat: true/],
    [
      'endAt before the first occurrence',
      { executionTime: Date.now() + 60_000, repeat: true, frequency: 'DAILY', executionRemainder: 2, endAt: Date.now() },
      /endAt .* is before the first occurrence/,
    ],
    [
      'a retry policy over 25 retries',
      { executionTime: Date.now(), retryPolicy: { maxRetries: 26, backoff: { type: 'fixed', delayMs: 1000 } } },
      /retryPolicy.maxRetries must be an integer from 0 to 25/,
    ],
    [
      'a delay under 100 ms',
      { executionTime: Date.now(), retryPolicy: { maxRetries: 1, backoff: { type: 'list', delaysMs: [50] } } },
      /retryPolicy.backoff.delaysMs must each be/,
    ],
    [
      'an unknown backoff type',
      { executionTime: Date.now(), retryPolicy: { maxRetries: 1, backoff: { type: 'linear' } } },
      /retryPolicy.backoff.type must be exponential, fixed or list/,
    ],
    ['no executionTime without cron', { repeat: true, frequency: 'DAILY', executionRemainder: 1 }, /^executionTime is required$/],
  ])('%s → 400 naming the field, nothing stored, also in a preview', async (_name, extra, message) => {
    const before = await storedCounts(stack.api.db);
    const jobs = await queuedJobs(stack.api.app);
    for (const path of ['/actions', '/actions/preview']) {
      const response = await stack.api.client.post(path, call('/never', extra));
      expect(response.status).toBe(400);
      expect(messageText(response.body)).toMatch(message);
    }
    expect(await storedCounts(stack.api.db)).toEqual(before);
    expect(await queuedJobs(stack.api.app)).toBe(jobs);
  });

  it('PATCH to a cron moves the occurrence to its first cron time; count outside 1–100 is 400', async () => {
    const created = (
      await stack.api.client.post(
        '/actions',
        call('/patched', { executionTime: '2031-01-01T10:15:00Z', repeat: true, frequency: 'HOURLY', executionRemainder: 3 }),
      )
    ).body;
    const patched = await stack.api.client.patch(`/actions/${created.id}`, { cron: '0 12 * * *' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ cron: '0 12 * * *', frequency: null, executionTime: '2031-01-01T12:00:00.000Z', executionRemainder: 3 });
    expect((await stack.api.client.get(`/actions/${created.id}/occurrences?count=0`)).status).toBe(400);
    expect((await stack.api.client.get(`/actions/${created.id}/occurrences?count=101`)).status).toBe(400);
  });
});
