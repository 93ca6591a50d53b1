import { PunctualClient, PunctualError, SignedHttp } from '@punctual/client';
import { waitUntil } from '@app/testing';
import { ApiTestApp, startApiApp, startCleanApiApp } from './support/api-test-app';
import { tenantWithKey } from './support/admin-api';
import { basicAuth } from './support/console-browser';
import { openConsoleSession, postConsoleForm } from './support/console-form';
import { httpRequestExample, notificationExample } from './support/fixtures';

const run = Math.random().toString(36).slice(2, 8);

/** An HTTP_REQUEST whose data its type refuses: what a tenant over quota must not get checked for free. */
const invalidHttpRequest = () => httpRequestExample(3_600_000, { data: { url: 'not a url', method: 'POST' } });

describe("Quotas: a tenant's creates fit its rate and its active actions, or store nothing (contract §13, §16)", () => {
  let api: ApiTestApp;

  beforeAll(async () => {
    api = await startCleanApiApp();
  });
  afterAll(() => api?.close());

  const tenantWith = async (name: string, limits: object) => {
    const tenant = await tenantWithKey(api.client.baseUrl, `${name}-${run}`, limits);
    return { ...tenant, client: new SignedHttp<any>({ baseUrl: api.client.baseUrl, ...tenant.key }) };
  };

  const stored = async (tenant: string, status?: string) =>
    (await api.db.query(`SELECT count(*)::int AS n FROM actions WHERE tenant_id = $1 AND ($2::text IS NULL OR status = $2)`, [tenant, status ?? null]))[0]
      .n as number;
  const statusOf = async (id: string) => (await api.db.query(`SELECT status FROM actions WHERE id = $1`, [id]))[0].status as string;
  const fail = (id: string) => api.db.query(`UPDATE actions SET status = 'FAILED', finished_at = now() WHERE id = $1`, [id]);

  it('admits exactly the burst of concurrent single creates, whether counted together or one by one', async () => {
    const { id, client } = await tenantWith('burst', { createRate: 2 });
    const answers = await Promise.all(Array.from({ length: 30 }, () => client.post('/actions', httpRequestExample())));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(20);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(10);
    expect(await stored(id)).toBe(20);
  });

  it('lets no burst of concurrent creates past maxActiveActions on one process', async () => {
    const { id, client } = await tenantWith('concurrent', { maxActiveActions: 5 });
    const answers = await Promise.all(Array.from({ length: 300 }, () => client.post('/actions', httpRequestExample())));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(5);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(295);
    expect(refused[0].body.message).toMatch(/active actions \(PENDING or IN_PROGRESS\) of at most 5/);
    expect(refused[0].headers.get('retry-after')).toBe('60');
    expect(await stored(id)).toBe(5);
  }, 120_000);

  it('refuses a batch larger than the burst with 400 naming the largest batch allowed, counting and storing nothing', async () => {
    const { id, client } = await tenantWith('batch', { createRate: 2 });
    const tooBig = await client.post('/actions/batch', { items: Array.from({ length: 21 }, () => httpRequestExample()) });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.message).toMatch(/at most 20 actions/);
    expect(await stored(id)).toBe(0);
    expect((await client.post('/actions/batch', { items: Array.from({ length: 20 }, () => httpRequestExample()) })).status).toBe(201);
    expect(await stored(id)).toBe(20);
  });

  it('frees the place of an action deleted or canceled at once, on the process that saw it', async () => {
    const { id, client } = await tenantWith('active', { maxActiveActions: 3 });
    const created: string[] = [];
    for (let i = 0; i < 3; i += 1) created.push((await client.post('/actions', httpRequestExample())).body.id);
    expect((await client.post('/actions', httpRequestExample())).status).toBe(429);
    const refused = await client.post('/actions/batch', { items: [httpRequestExample()] });
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/has 3 active actions \(PENDING or IN_PROGRESS\) of at most 3/);
    expect(await stored(id)).toBe(3);

    expect((await client.delete(`/actions/${created[0]}`)).status).toBe(204);
    expect((await client.post('/actions', httpRequestExample())).status).toBe(201);
    expect((await client.post('/actions', httpRequestExample())).status).toBe(429);
    expect((await client.post(`/actions/${created[1]}/cancel`, {})).status).toBe(200);
    expect((await client.post('/actions', httpRequestExample())).status).toBe(201);
    expect((await client.post('/actions', httpRequestExample())).status).toBe(429);
    expect(await stored(id, 'PENDING')).toBe(3);
  });

  it('answers a repeat with its Idempotency-Key with the first action at the active limit and at zero rate, spending neither', async () => {
    const full = await tenantWith('replay-active', { maxActiveActions: 1 });
    const body = httpRequestExample();
    const first = await full.client.post('/actions', body, { headers: { 'idempotency-key': 'once' } });
    expect(first.status).toBe(201);
    const repeat = await full.client.post('/actions', body, { headers: { 'idempotency-key': 'once' } });
    expect(repeat.status).toBe(200);
    expect(repeat.body.id).toBe(first.body.id);
    const otherBody = await full.client.post('/actions', httpRequestExample(60_000), { headers: { 'idempotency-key': 'once' } });
    expect(otherBody.status).toBe(422);
    expect(await stored(full.id)).toBe(1);

    // A rate of 1 allows bursts of 10: the first create takes one, its repeats none.
    const rated = await tenantWith('replay-rate', { createRate: 1 });
    const original = await rated.client.post('/actions', body, { headers: { 'idempotency-key': 'once' } });
    for (let i = 0; i < 5; i += 1)
      expect((await rated.client.post('/actions', body, { headers: { 'idempotency-key': 'once' } })).body.id).toBe(original.body.id);
    expect((await rated.client.post('/actions/batch', { items: Array.from({ length: 9 }, () => httpRequestExample()) })).status).toBe(201);
    expect((await rated.client.post('/actions', httpRequestExample())).status).toBe(429);
    const atZero = await rated.client.post('/actions', body, { headers: { 'idempotency-key': 'once' } });
    expect(atZero.status).toBe(200);
    expect(atZero.body.id).toBe(original.body.id);
    expect(await stored(rated.id)).toBe(10);
  });

  it('gives back the places and the rate of concurrent repeats that lost the race to store first', async () => {
    const { id, client } = await tenantWith('replay-race', { createRate: 1, maxActiveActions: 10 });
    const body = httpRequestExample();
    const answers = await Promise.all(Array.from({ length: 8 }, () => client.post('/actions', body, { headers: { 'idempotency-key': 'raced' } })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
    // Nine places and nine creates left of ten: only the first create took either.
    expect((await client.post('/actions/batch', { items: Array.from({ length: 9 }, () => httpRequestExample()) })).status).toBe(201);
    expect(await stored(id)).toBe(10);
  });

  it('refuses a tenant over its quota with 429 before checking its costly body, and keeps the rate of a body it refused', async () => {
    const full = await tenantWith('costly-active', { maxActiveActions: 1 });
    const refusedFirst = await full.client.post('/actions', invalidHttpRequest());
    expect(refusedFirst.status).toBe(400);
    // The refused create gave its place back.
    expect((await full.client.post('/actions', httpRequestExample())).status).toBe(201);
    expect((await full.client.post('/actions', invalidHttpRequest())).status).toBe(429);
    const tooFrequent = { action: 'HTTP_REQUEST', data: { url: 'http://127.0.0.1:9/hook' }, repeat: true, cron: '*/30 * * * * *' };
    expect((await full.client.post('/actions', tooFrequent)).status).toBe(429);
    expect((await full.client.post('/actions/batch', { items: [invalidHttpRequest()] })).status).toBe(429);
    expect(await stored(full.id)).toBe(1);

    const rated = await tenantWith('costly-rate', { createRate: 1 });
    for (let i = 0; i < 10; i += 1) expect((await rated.client.post('/actions', invalidHttpRequest())).status).toBe(400);
    const overRate = await rated.client.post('/actions', httpRequestExample());
    expect(overRate.status).toBe(429);
    expect(overRate.body.message).toMatch(/may create 1 actions per second/);
    expect(await stored(rated.id)).toBe(0);
  });

  it('counts pause, resume, skip and retry against the create rate, and never cancel', async () => {
    const { id, client } = await tenantWith('controls', { createRate: 1 });
    const repeating = (await client.post('/actions', notificationExample())).body.id;
    const failed = (await client.post('/actions', httpRequestExample())).body.id;
    await fail(failed);
    // Two creates and eight controls spend the burst of ten.
    expect((await client.post(`/actions/${failed}/retry`)).status).toBe(200);
    for (const control of ['pause', 'resume', 'skip', 'pause', 'resume', 'skip', 'pause'])
      expect((await client.post(`/actions/${repeating}/${control}`, {})).status).toBe(200);
    await fail(failed);
    for (const control of ['resume', 'skip', 'pause']) {
      const refused = await client.post(`/actions/${repeating}/${control}`, {});
      expect(refused.status).toBe(429);
      expect(refused.body.message).toMatch(/each pause, resume, skip or retry counting as one/);
    }
    expect((await client.post(`/actions/${failed}/retry`)).status).toBe(429);
    expect(await statusOf(failed)).toBe('FAILED');
    const canceled = await client.post(`/actions/${repeating}/cancel`, {});
    expect(canceled.status).toBe(200);
    expect(canceled.body.status).toBe('CANCELED');
    expect(await stored(id)).toBe(2);
  });

  it('refuses a retry that would pass maxActiveActions, over the API and in the console, changing nothing', async () => {
    const { id, client } = await tenantWith('retry', { maxActiveActions: 1 });
    const failed = (await client.post('/actions', httpRequestExample())).body.id;
    await fail(failed);
    // A final outcome is recorded by a worker: the API learns of it at its next read of the counts.
    let other = '';
    await waitUntil(
      'the API to learn that the action failed',
      async () => {
        const created = await client.post('/actions', httpRequestExample());
        other = created.body.id;
        return created.status === 201;
      },
      5_000,
    );

    const refused = await client.post(`/actions/${failed}/retry`);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/has 1 active actions \(PENDING or IN_PROGRESS\) of at most 1/);
    expect(await statusOf(failed)).toBe('FAILED');

    const origin = api.client.baseUrl;
    const retryAll = `/admin/dead-letters/HTTP_REQUEST/retry-all`;
    const session = await openConsoleSession(origin, `${retryAll}?tenant=${id}`);
    const answer = await postConsoleForm(origin, retryAll, { _csrf: session.token, tenant: id }, { cookie: session.cookie, origin });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toMatch(/retried=0&skipped=0&overQuota=1$/);
    expect(await statusOf(failed)).toBe('FAILED');
    const page = await (await fetch(`${origin}${answer.headers.get('location')}`, { headers: { ...basicAuth(), cookie: session.cookie } })).text();
    expect(page).toContain('1 stayed FAILED: their tenant has no place left among its active actions');
    const single = await postConsoleForm(origin, `/admin/actions/${failed}/retry`, { _csrf: session.token }, { cookie: session.cookie, origin });
    expect(single.status).toBe(429);
    // The action's page, with the reason where its other refusals show theirs.
    expect(single.headers.get('content-type')).toMatch(/^text\/html/);
    const refusalPage = await single.text();
    expect(refusalPage).toContain(`<title>Action ${failed}`);
    expect(refusalPage).toContain(`Tenant ${id} has 1 active actions (PENDING or IN_PROGRESS) of at most 1`);
    expect(await statusOf(failed)).toBe('FAILED');

    expect((await client.delete(`/actions/${other}`)).status).toBe(204);
    const retried = await client.post(`/actions/${failed}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.body.status).toBe('PENDING');
    expect(await stored(id, 'PENDING')).toBe(1);
  });
});

describe('Quotas over RPC: the same refusals as over HTTP', () => {
  let api: ApiTestApp;

  beforeAll(async () => {
    api = await startApiApp(undefined, { RPC_TRANSPORT_URL: process.env.REDIS_URL! });
  });
  afterAll(() => api?.close());

  it('answers 429 with Retry-After once the create rate is used up, over HTTP and RPC, counting batch items, storing nothing', async () => {
    const tenant = await tenantWithKey(api.client.baseUrl, `rate-${run}`, { createRate: 2 });
    const stored = async () => (await api.db.query(`SELECT count(*)::int AS n FROM actions WHERE tenant_id = $1`, [tenant.id]))[0].n as number;
    const client = new SignedHttp<any>({ baseUrl: api.client.baseUrl, ...tenant.key });
    expect((await client.post('/actions/batch', { items: Array.from({ length: 19 }, () => httpRequestExample()) })).status).toBe(201);
    expect((await client.post('/actions', httpRequestExample())).status).toBe(201);
    const refused = await client.post('/actions', httpRequestExample());
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.body.message).toMatch(/may create 2 actions per second \(bursts of 20\)/);
    const rpc = PunctualClient.overRpc({ transport: process.env.REDIS_URL!, ...tenant.key });
    try {
      const error = await rpc.create(httpRequestExample() as never).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(PunctualError);
      expect((error as PunctualError).statusCode).toBe(429);
    } finally {
      await rpc.close();
    }
    expect(await stored()).toBe(20);
    // Another tenant's rate is its own.
    expect((await api.client.post('/actions', httpRequestExample())).status).toBe(201);
  });
});
