import { PunctualClient, PunctualError, SignedHttp } from '@punctual/client';
import { waitUntil } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { tenantWithKey } from './support/admin-api';
import { httpRequestExample } from './support/fixtures';

const run = Math.random().toString(36).slice(2, 8);

describe("Quotas: a tenant's creates fit its rate and its active actions, or store nothing (contract §13)", () => {
  let api: ApiTestApp;

  beforeAll(async () => {
    api = await startCleanApiApp(undefined, { RPC_TRANSPORT_URL: process.env.REDIS_URL! });
  });
  afterAll(() => api?.close());

  const tenantWith = (name: string, limits: object) => tenantWithKey(api.client.baseUrl, `${name}-${run}`, limits);

  const stored = async (tenant: string) => (await api.db.query(`SELECT count(*)::int AS n FROM actions WHERE tenant_id = $1`, [tenant]))[0].n as number;

  it('answers 429 with Retry-After once the create rate is used up, over HTTP and RPC, counting batch items, storing nothing', async () => {
    const tenant = await tenantWith('rate', { createRate: 2 });
    const client = new SignedHttp<any>({ baseUrl: api.client.baseUrl, ...tenant.key });
    // A rate of 2 per second allows bursts of 20: a refused batch takes nothing from it.
    const tooBig = await client.post('/actions/batch', { items: Array.from({ length: 21 }, () => httpRequestExample()) });
    expect(tooBig.status).toBe(429);
    expect(Number(tooBig.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(tooBig.body.message).toMatch(/may create 2 actions per second \(bursts of 20\)/);
    expect(await stored(tenant.id)).toBe(0);

    expect((await client.post('/actions/batch', { items: Array.from({ length: 19 }, () => httpRequestExample()) })).status).toBe(201);
    expect((await client.post('/actions', httpRequestExample())).status).toBe(201);
    const refused = await client.post('/actions', httpRequestExample());
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
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
    expect(await stored(tenant.id)).toBe(20);
    // Another tenant's rate is its own.
    expect((await api.client.post('/actions', httpRequestExample())).status).toBe(201);
  });

  it('admits exactly the burst of concurrent single creates, whether counted together or one by one', async () => {
    const tenant = await tenantWith('burst', { createRate: 2 });
    const client = new SignedHttp<any>({ baseUrl: api.client.baseUrl, ...tenant.key });
    const answers = await Promise.all(Array.from({ length: 30 }, () => client.post('/actions', httpRequestExample())));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(20);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(10);
    expect(await stored(tenant.id)).toBe(20);
  });

  it('answers 429 while the tenant has its most active actions, and admits creates again once one ends', async () => {
    const tenant = await tenantWith('active', { maxActiveActions: 3 });
    const client = new SignedHttp<any>({ baseUrl: api.client.baseUrl, ...tenant.key });
    const created: string[] = [];
    for (let i = 0; i < 3; i += 1) created.push((await client.post('/actions', httpRequestExample())).body.id);
    // This process counts its own creates at once, between its reads of the stored counts.
    expect((await client.post('/actions', httpRequestExample())).status).toBe(429);
    const refused = await client.post('/actions/batch', { items: [httpRequestExample()] });
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/has 3 active actions \(PENDING or IN_PROGRESS\) of at most 3/);
    expect(await stored(tenant.id)).toBe(3);

    expect((await client.delete(`/actions/${created[0]}`)).status).toBe(204);
    await waitUntil('a create to be admitted again', async () => (await client.post('/actions', httpRequestExample())).status === 201, 5_000);
    expect(await stored(tenant.id)).toBe(3);
  });
});
