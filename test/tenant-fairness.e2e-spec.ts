import { INestApplicationContext } from '@nestjs/common';
import { SignedHttp } from '@punctual/client';
import { HttpReceiver, OTHER_TENANT_KEY, waitUntil } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { tenantWithKey } from './support/admin-api';
import { startWorker } from './support/worker-test-app';

const BURST = 2000;

describe("Fairness: one tenant's burst holds up no other tenant, and a tenant's concurrency limit holds across workers (contract §13)", () => {
  let api: ApiTestApp;
  let workers: INestApplicationContext[] = [];
  const receiver = new HttpReceiver();
  /** Two workers, started once and kept for the file's later tests. */
  const startWorkers = async () => {
    if (workers.length === 0) workers = [await startWorker(), await startWorker()];
  };

  beforeAll(async () => {
    await receiver.start();
    api = await startCleanApiApp();
  });
  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.close()));
    await api.close();
    await receiver.stop();
  });

  const calling = (path: string, executionTime: number) => ({ action: 'HTTP_REQUEST', executionTime, data: { url: receiver.url(path) } });
  const completed = async (tenant: string) =>
    (await api.db.query(`SELECT count(*)::int AS n FROM actions WHERE tenant_id = $1 AND status = 'COMPLETED'`, [tenant]))[0].n as number;

  it("another tenant's action due at the instant of a burst starts before half of the burst has", async () => {
    // No worker runs while the burst is stored, so however long a loaded machine takes to store it,
    // every job is queued before any is taken: the order they run in is the queue's alone.
    const due = Date.now();
    for (let from = 0; from < BURST; from += 1000) {
      const items = Array.from({ length: 1000 }, () => calling('/burst', due));
      expect((await api.client.post('/actions/batch', { items })).status).toBe(201);
    }
    // Queued after the whole burst, so that first come, first served would run it last.
    const other = new SignedHttp<any>({ baseUrl: api.client.baseUrl, ...OTHER_TENANT_KEY });
    expect((await other.post('/actions', calling('/other', due))).status).toBe(201);
    await startWorkers();

    await waitUntil("the other tenant's call", () => receiver.callsTo('/other').length === 1, 30_000);
    const otherAt = receiver.calls.findIndex((call) => call.path === '/other');
    const burstBefore = receiver.calls.slice(0, otherAt).filter((call) => call.path === '/burst').length;
    expect(burstBefore).toBeLessThan(BURST / 2);
    await waitUntil('the whole burst to run', async () => (await completed('default')) === BURST, 60_000);
    expect(receiver.callsTo('/burst')).toHaveLength(BURST);
  }, 120_000);

  it("a tenant's maxConcurrency caps its attempts at once across workers; parked jobs run as slots free, once each; others pass", async () => {
    const { id: tenant, key } = await tenantWithKey(api.client.baseUrl, `capped-${Math.random().toString(36).slice(2, 8)}`, { maxConcurrency: 2 });
    const capped = new SignedHttp<any>({ baseUrl: api.client.baseUrl, ...key });
    await startWorkers();

    receiver.delayNext(1000, 300);
    try {
      const startedAt = Date.now();
      const items = Array.from({ length: 8 }, () => calling('/capped', Date.now()));
      expect((await capped.post('/actions/batch', { items })).status).toBe(201);
      expect((await api.client.post('/actions/batch', { items: Array.from({ length: 6 }, () => calling('/free', Date.now())) })).status).toBe(201);

      await waitUntil("the capped tenant's actions to complete", async () => (await completed(tenant)) === 8, 20_000);
      // Parked jobs were woken as slots freed, not by their own delay (a claim lease, 30 s).
      expect(Date.now() - startedAt).toBeLessThan(15_000);
      expect(receiver.peakInFlight('/capped')).toBe(2);
      expect(receiver.peakInFlight('/free')).toBeGreaterThan(2);
      const calls = receiver.callsByIdempotencyKey();
      const ids = (await api.db.query(`SELECT id FROM actions WHERE tenant_id = $1`, [tenant])).map((row: { id: string }) => row.id);
      expect(ids.map((id: string) => calls.get(`${id}:1`))).toEqual(ids.map(() => 1));
    } finally {
      receiver.delayNext(0, 0);
    }
  });
});
