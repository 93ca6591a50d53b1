import { ActivityRepository, EVERY_TENANT, MinuteActivity } from '@app/database';
import { SignedHttp } from '@punctual/client';
import { HttpReceiver, OTHER_TENANT_KEY, waitUntil } from '@app/testing';
import { LastHourActivity } from '@app/server';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { basicAuth } from './support/console-browser';
import { emptyTables, httpRequestExample } from './support/fixtures';
import { startWorker } from './support/worker-test-app';

/** The overview's page, as an operator's browser gets it. */
async function overviewPage(baseUrl: string, tenant?: string): Promise<string> {
  const response = await fetch(`${baseUrl}/admin${tenant ? `?tenant=${tenant}` : ''}`, { headers: basicAuth() });
  expect(response.status).toBe(200);
  return response.text();
}

/** The attempts started in the last hour, from the table of figures per minute (its fifth column). */
function startedIn(page: string): number {
  const table = /<details id="minute-figures">([\s\S]*?)<\/details>/.exec(page)?.[1] ?? '';
  const rows = [...table.matchAll(/<tr>\s*<td>[\s\S]*?<\/td>\s*<td>(\d+)<\/td>\s*<td>(\d+)<\/td>\s*<td>(\d+)<\/td>\s*<td>(\d+)<\/td>/g)];
  return rows.reduce((sum, row) => sum + Number(row[4]), 0);
}

const totals = (minutes: MinuteActivity[]) =>
  minutes.reduce(
    (sum, m) => ({
      succeeded: sum.succeeded + m.succeeded,
      failed: sum.failed + m.failed,
      noAction: sum.noAction + m.noAction,
      started: sum.started + m.started,
    }),
    { succeeded: 0, failed: 0, noAction: 0, started: 0 },
  );

/** The overview's figures come from what Postgres stores: the history (with each claim's due time) and the actions. */
describe('Console activity figures', () => {
  let api: ApiTestApp;
  let activity: ActivityRepository;

  beforeAll(async () => {
    api = await startCleanApiApp();
    activity = api.app.get(ActivityRepository);
  });
  afterAll(() => api.close());
  beforeEach(() => emptyTables(api.db));

  const create = async (body: object): Promise<string> => (await api.client.post('/actions', body)).body.id;

  it('counts what a real worker did in the last hour by outcome, with the firing lag of each attempt it started', async () => {
    const receiver = await new HttpReceiver().start();
    const worker = await startWorker();
    try {
      const since = new Date();
      // Fails twice, then succeeds: three attempts of one occurrence.
      receiver.failNext(2);
      const flaky = await create(httpRequestExample(0, { data: { url: receiver.url('/flaky') } }));
      await waitUntil('the flaky action to complete', async () => (await api.client.get(`/actions/${flaky}`)).body.status === 'COMPLETED');
      // Its first occurrence succeeds and the next one waits ten minutes: a success that left no later claim behind.
      const repeating = await create(
        httpRequestExample(0, { data: { url: receiver.url('/repeat') }, repeat: true, frequency: 'TEN_MINS', executionRemainder: 3 }),
      );
      await waitUntil(
        'the repeating action to reach its second occurrence',
        async () => (await api.client.get(`/actions/${repeating}`)).body.occurrence === 2,
      );

      const minutes = await activity.perMinute(EVERY_TENANT, since, new Date(Date.now() + 1));
      expect(totals(minutes)).toEqual({ succeeded: 2, failed: 2, noAction: 0, started: 4 });
      for (const m of minutes.filter((minute) => minute.started > 0)) {
        expect(m.lagP50Ms).toBeGreaterThanOrEqual(0);
        expect(m.lagP99Ms).toBeGreaterThanOrEqual(m.lagP50Ms!);
      }
      // Every claim recorded when its attempt was due: the retries at their backoff time, after the failure before them.
      const entries: { from_status: string; to_status: string; at: Date; due_at: Date | null }[] = await api.db.query(
        `SELECT from_status, to_status, at, due_at FROM action_history WHERE action_id = $1 ORDER BY id`,
        [flaky],
      );
      const claims = entries.filter((e) => e.from_status === 'PENDING' && e.to_status === 'IN_PROGRESS');
      expect(claims).toHaveLength(3);
      for (const claim of claims) expect(claim.due_at!.getTime()).toBeLessThanOrEqual(claim.at.getTime());
      const failures = entries.filter((e) => e.from_status === 'IN_PROGRESS' && e.to_status === 'PENDING');
      expect(claims[1].due_at!.getTime()).toBeGreaterThan(failures[0].at.getTime());
      expect(entries.filter((e) => e.to_status !== 'IN_PROGRESS' || e.from_status !== 'PENDING').every((e) => e.due_at === null)).toBe(true);
    } finally {
      await worker.close();
      await receiver.stop();
    }
  });

  it('counts the outcomes the history recorded, minute by minute, and takes lag percentiles over the claims', async () => {
    const [a, b, c, waiting, next] = await Promise.all([1, 2, 3, 4, 5].map(() => create(httpRequestExample())));
    const at = (time: string) => `2020-01-01T10:${time}Z`;
    const entries: [string, string, string, string, string | null, string, string | null][] = [
      // 10:00 — a's first occurrence succeeds and its second is claimed: lags 100 ms and 300 ms.
      [a, 'PENDING', 'IN_PROGRESS', 'claimed', null, at('00:00.100'), at('00:00.000')],
      [a, 'IN_PROGRESS', 'PENDING', 'succeeded', 'succeeded', at('00:10'), null],
      [a, 'PENDING', 'IN_PROGRESS', 'claimed', null, at('00:20'), at('00:19.700')],
      // 10:01 — a's second occurrence fails, is retried, is interrupted (worker lost), then fails for good.
      [a, 'IN_PROGRESS', 'PENDING', 'failed', 'failed', at('01:05'), null],
      [a, 'PENDING', 'IN_PROGRESS', 'claimed', null, at('01:30'), at('01:29')],
      [a, 'IN_PROGRESS', 'IN_PROGRESS', 'interrupted', 'failed', at('01:40'), null],
      [a, 'IN_PROGRESS', 'FAILED', 'failed', 'failed', at('01:50'), null],
      // 10:02 — b's type is unknown, c completes, `waiting` backs off, `next` moves on; a skip and a cancel request are no attempts.
      [b, 'PENDING', 'NO_ACTION', 'typeUnknown', 'no_action', at('02:00'), null],
      [c, 'IN_PROGRESS', 'COMPLETED', 'succeeded', 'succeeded', at('02:10'), null],
      [waiting, 'IN_PROGRESS', 'PENDING', 'failed', 'failed', at('02:20'), null],
      [next, 'PENDING', 'PENDING', 'succeeded', null, at('02:29'), null],
      [next, 'IN_PROGRESS', 'PENDING', 'succeeded', 'succeeded', at('02:30'), null],
      [c, 'IN_PROGRESS', 'IN_PROGRESS', 'canceled', null, at('02:40'), null],
    ];
    for (const [id, from, to, event, outcome, time, due] of entries) {
      await api.db.query(
        `INSERT INTO action_history (action_id, from_status, to_status, occurrence, attempt, note, at, due_at, event, outcome)
          VALUES ($1, $2, $3, 1, 1, NULL, $4, $5, $6, $7)`,
        [id, from, to, time, due, event, outcome],
      );
    }

    const minutes = await activity.perMinute(EVERY_TENANT, new Date(at('00:30')), new Date(at('03:00')));
    expect(minutes.map((m) => ({ ...m, minute: m.minute.toISOString() }))).toEqual([
      { minute: at('00:00.000'), succeeded: 1, failed: 0, noAction: 0, started: 2, lagP50Ms: 200, lagP99Ms: 298 },
      { minute: at('01:00.000'), succeeded: 0, failed: 3, noAction: 0, started: 1, lagP50Ms: 1000, lagP99Ms: 1000 },
      { minute: at('02:00.000'), succeeded: 2, failed: 1, noAction: 1, started: 0, lagP50Ms: null, lagP99Ms: null },
    ]);
  });

  it('reads each finished minute of the last hour once, and the minutes still filling on every refresh', async () => {
    const id = await create(httpRequestExample());
    const now = new Date();
    const claimAt = (ago: number) => new Date(now.getTime() - ago);
    const claim = (at: Date) =>
      api.db.query(
        `INSERT INTO action_history (action_id, from_status, to_status, occurrence, attempt, at, due_at, event)
          VALUES ($1, 'PENDING', 'IN_PROGRESS', 1, 1, $2, $3, 'claimed') RETURNING id`,
        [id, at, new Date(at.getTime() - 40)],
      );
    await claim(claimAt(30 * 60_000));
    const lastHour = new LastHourActivity(activity);
    const reads = jest.spyOn(activity, 'perMinute');

    const first = await lastHour.at(now, EVERY_TENANT);
    expect(first).toHaveLength(60);
    expect(first.reduce((sum, m) => sum + m.started, 0)).toBe(1);
    expect(reads.mock.calls[0][1].getTime()).toBe(first[0].minute.getTime());

    // Finished minutes are not read again: a change there is not seen; one in the current minute is.
    await api.db.query(`DELETE FROM action_history WHERE at < $1`, [claimAt(60_000)]);
    await claim(now);
    const second = await lastHour.at(new Date(now.getTime() + 1), EVERY_TENANT);
    expect(second.reduce((sum, m) => sum + m.started, 0)).toBe(2);
    expect(reads.mock.calls[1][1].getTime()).toBeGreaterThanOrEqual(now.getTime() - 3 * 60_000);
    reads.mockRestore();
  });

  it('limits the overdue actions and the last hour to the tenant the overview is filtered by', async () => {
    const other = new SignedHttp<any>({ baseUrl: api.client.baseUrl, ...OTHER_TENANT_KEY });
    const [mine, mineToo] = await Promise.all([create(httpRequestExample(-60_000)), create(httpRequestExample(-90_000))]);
    const theirs = (await other.post('/actions', httpRequestExample(-120_000))).body.id as string;
    // Claims in the last hour: two of this tenant's actions, three of the other tenant's, in a minute already finished.
    const claimedAt = new Date(Date.now() - 5 * 60_000);
    for (const id of [mine, mineToo, theirs, theirs, theirs]) {
      await api.db.query(
        `INSERT INTO action_history (action_id, from_status, to_status, occurrence, attempt, at, due_at, event)
          VALUES ($1, 'PENDING', 'IN_PROGRESS', 1, 1, $2, $3, 'claimed')`,
        [id, claimedAt, new Date(claimedAt.getTime() - 40)],
      );
    }

    // Every tenant's first, so that minutes read for every tenant are kept before a tenant's are asked for.
    const everyTenant = await overviewPage(api.client.baseUrl);
    expect(everyTenant).toContain('3 PENDING actions are more than 10 s late');
    expect(startedIn(everyTenant)).toBe(5);

    const theirPage = await overviewPage(api.client.baseUrl, 'team-b');
    expect(theirPage).toContain('1 PENDING action is more than 10 s late');
    expect(theirPage).toContain(`/admin/actions/${theirs}`);
    expect(theirPage).not.toContain(`/admin/actions/${mine}`);
    expect(startedIn(theirPage)).toBe(3);

    const myPage = await overviewPage(api.client.baseUrl, 'default');
    expect(myPage).toContain('2 PENDING actions are more than 10 s late');
    expect(myPage).not.toContain(`/admin/actions/${theirs}`);
    expect(startedIn(myPage)).toBe(2);
  });

  it('finds PENDING actions that are late, most overdue first, and the overview names them', async () => {
    const late = await create(httpRequestExample(-60_000));
    const later = await create(httpRequestExample(-120_000));
    await create(httpRequestExample(-2_000));
    await create(httpRequestExample(3_600_000));

    const overdue = await activity.overdue(EVERY_TENANT, new Date(Date.now() - 10_000), 10);
    expect(overdue.count).toBe(2);
    expect(overdue.oldest.map((action) => action.id)).toEqual([later, late]);
    const page = await (await fetch(`${api.client.baseUrl}/admin`, { headers: basicAuth() })).text();
    expect(page).toContain('2 PENDING actions are more than 10 s late');
    expect(page).toContain(`/admin/actions/${later}`);
  });
});
