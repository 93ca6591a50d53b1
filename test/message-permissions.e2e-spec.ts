import { INestApplicationContext } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { SignedHttp } from '@punctual/client';
import { MESSAGING_READ_MS } from '@app/action-types';
import { OTHER_TENANT_KEY, waitUntil } from '@app/testing';
import { adminApi } from './support/admin-api';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { storedCounts } from './support/fixtures';
import { queuedJobs } from './support/queue-state';
import { SiblingApp } from './support/sibling-app';
import { startWorker } from './support/worker-test-app';

/** A second transport on the same Redis: a grant of `default` alone must not reach it. */
const TRANSPORTS = { MESSAGE_TRANSPORTS: `second=${process.env.REDIS_URL!}` };
const TEAM_B = 'team-b';

describe('Who may message what: per-tenant MESSAGE permissions (contract §16)', () => {
  let api: ApiTestApp;
  let worker: INestApplicationContext;
  let teamB: SignedHttp<any>;
  const siblings: SiblingApp[] = [];
  /** Patterns of this run alone, so no other run's sibling answers them. */
  const run = randomUUID().slice(0, 8);
  const billing = `billing-${run}.`;
  const audit = `audit-${run}.record`;

  const admin = (method: string, path: string, body?: unknown) => adminApi(api.client.baseUrl, method, path, body);
  /** Tenants outlive a spec's cleaning of the tables: every spec starts and ends with the grants unset. */
  const forgetGrants = async () => {
    for (const tenant of [TEAM_B, 'default']) expect((await admin('PATCH', `/tenants/${tenant}`, { messaging: null })).status).toBe(200);
  };
  const grant = async (tenant: string, transports: string[], patterns: string[]) => {
    const answer = await admin('PATCH', `/tenants/${tenant}`, { messaging: { transports, patterns } });
    expect(answer.status).toBe(200);
    expect(answer.body.messaging).toEqual({ transports, patterns });
  };
  const message = (pattern: string, extra: Record<string, unknown> = {}, inMs = 3_600_000) => ({
    action: 'MESSAGE',
    executionTime: Date.now() + inMs,
    data: { pattern, ...extra },
  });

  beforeAll(async () => {
    api = await startCleanApiApp(undefined, TRANSPORTS);
    worker = await startWorker({ env: TRANSPORTS });
    teamB = new SignedHttp<any>({ baseUrl: api.client.baseUrl, ...OTHER_TENANT_KEY });
    await forgetGrants();
  });
  afterAll(async () => {
    if (api) await forgetGrants();
    await Promise.all(siblings.map((s) => s.stop()));
    await worker?.close();
    await api?.close();
  });

  it('refuses every MESSAGE of a tenant that was allowed nothing: create, batch by index, preview; nothing stored or queued', async () => {
    const before = await storedCounts(api.db);
    const jobs = await queuedJobs(api.app);

    const create = await teamB.post('/actions', message(`${billing}downgrade`));
    expect(create.status).toBe(400);
    expect(create.body.message).toEqual([
      `data.transport: transport "default" is not allowed for tenant ${TEAM_B}; an operator allows it in the tenant's messaging`,
    ]);
    const batch = await teamB.post('/actions/batch', {
      items: [{ action: 'HTTP_REQUEST', executionTime: Date.now() + 60_000, data: { url: 'https://example.com/' } }, message(`${billing}x`)],
    });
    expect(batch.status).toBe(400);
    expect(batch.body.message).toEqual([
      `items.1.data.transport: transport "default" is not allowed for tenant ${TEAM_B}; an operator allows it in the tenant's messaging`,
    ]);
    expect((await teamB.post('/actions/preview', message(`${billing}x`))).status).toBe(400);

    expect(await storedCounts(api.db)).toEqual(before);
    expect(await queuedJobs(api.app)).toBe(jobs);
  });

  it('allows exactly what was granted: a prefix, an exact pattern, on the transports named', async () => {
    await grant(TEAM_B, ['default'], [billing, audit]);

    for (const pattern of [`${billing}downgrade`, `${billing}plan.change`, audit]) {
      expect([pattern, (await teamB.post('/actions', message(pattern))).status]).toEqual([pattern, 201]);
    }
    expect((await teamB.post('/actions/preview', message(audit))).status).toBe(200);

    const before = await storedCounts(api.db);
    const refusedPattern = (pattern: string) => [
      `data.pattern: pattern "${pattern}" is not allowed for tenant ${TEAM_B}; an operator allows it in the tenant's messaging`,
    ];
    for (const pattern of [`billing-${run}`, `${audit}.more`, `${audit.slice(0, -1)}`, `crm-${run}.delete`]) {
      const answer = await teamB.post('/actions', message(pattern));
      expect([pattern, answer.status, answer.body.message]).toEqual([pattern, 400, refusedPattern(pattern)]);
    }
    const otherTransport = await teamB.post('/actions', message(`${billing}downgrade`, { transport: 'second' }));
    expect(otherTransport.status).toBe(400);
    expect(otherTransport.body.message).toEqual([
      `data.transport: transport "second" is not allowed for tenant ${TEAM_B}; an operator allows it in the tenant's messaging`,
    ]);
    expect(await storedCounts(api.db)).toEqual(before);
  });

  it('judges a PATCH of data as a create: a pattern outside the grant is refused and the data stays', async () => {
    await grant(TEAM_B, ['default'], [billing]);
    const created = await teamB.post('/actions', message(`${billing}downgrade`));
    expect(created.status).toBe(201);

    const patched = await teamB.patch(`/actions/${created.body.id}`, { data: { pattern: `crm-${run}.delete` } });
    expect(patched.status).toBe(400);
    expect(patched.body.message).toEqual([
      `data.pattern: pattern "crm-${run}.delete" is not allowed for tenant ${TEAM_B}; an operator allows it in the tenant's messaging`,
    ]);
    expect((await teamB.get(`/actions/${created.body.id}`)).body.data).toEqual({ pattern: `${billing}downgrade` });
    expect((await teamB.patch(`/actions/${created.body.id}`, { data: { pattern: `${billing}upgrade` } })).status).toBe(200);
  });

  it('leaves the tenant default every transport and pattern until an operator limits it', async () => {
    const defaultReach = (await admin('GET', '/tenants/default')).body.messaging;
    expect(defaultReach).toBeNull();
    expect((await api.client.post('/actions', message(`anything-${run}`, { transport: 'second' }))).status).toBe(201);

    await grant('default', ['second'], [billing]);
    expect((await api.client.post('/actions', message(`anything-${run}`, { transport: 'second' }))).status).toBe(400);
    expect((await api.client.post('/actions', message(`${billing}x`, { transport: 'second' }))).status).toBe(201);

    expect((await admin('PATCH', '/tenants/default', { messaging: null })).body.messaging).toBeNull();
    expect((await api.client.post('/actions', message(`anything-${run}`))).status).toBe(201);
  });

  it('fails the send at once when the permission was withdrawn after create; the sibling receives nothing', async () => {
    const sibling = await new SiblingApp(process.env.REDIS_URL!, `${billing}withdrawn`, `${billing}withdrawn.event`).start();
    siblings.push(sibling);
    await grant(TEAM_B, ['default'], [billing]);
    // Due once every process's read of the grant below is older than MESSAGING_READ_MS.
    const created = await teamB.post('/actions', {
      ...message(sibling.pattern, {}, MESSAGING_READ_MS + 1_500),
      retryPolicy: { maxRetries: 5, backoff: { type: 'fixed', delayMs: 100 } },
    });
    expect(created.status).toBe(201);
    await grant(TEAM_B, ['default'], [audit]);

    const failed = await waitUntil(
      `action ${created.body.id} to fail`,
      async () => {
        const action = (await teamB.get(`/actions/${created.body.id}`)).body;
        return action.status === 'FAILED' ? action : null;
      },
      15_000,
    );
    expect(failed.retryCount).toBe(1); // one attempt, though its retry policy allows five more
    expect(failed.lastError).toBe(
      `MESSAGE not sent: pattern "${sibling.pattern}" is not allowed for tenant ${TEAM_B}; an operator allows it in the tenant's messaging`,
    );
    expect(sibling.received).toEqual([]);
  });
});
