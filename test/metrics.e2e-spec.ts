import { INestApplicationContext } from '@nestjs/common';
import { HttpReceiver, Scrape, sumOf, waitUntil } from '@app/testing';
import { QueueConsumers } from '@app/server';
import { ApiTestApp, startApiApp, startCleanApiApp } from './support/api-test-app';
import { notificationExample } from './support/fixtures';
import { startWorker, workerHttpUrl } from './support/worker-test-app';

/** Fast sweeps; no retries, so a failing call ends FAILED at once; both workers serve HTTP_REQUEST only. */
const FAST = { PROMOTE_INTERVAL_MS: '200', OVERDUE_GRACE_MS: '300', MAX_RETRIES: '0' };
const WORKER_ENV = { ...FAST, WORKER_ACTIONS: 'HTTP_REQUEST' };
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

describe('Prometheus metrics from the API and two workers', () => {
  const receiver = new HttpReceiver();
  let api: ApiTestApp;
  let workers: INestApplicationContext[];

  beforeAll(async () => {
    await receiver.start();
    api = await startCleanApiApp(undefined, FAST);
    workers = [await startWorker({ env: WORKER_ENV }), await startWorker({ env: WORKER_ENV })];
  });
  afterAll(async () => {
    for (const worker of workers) await worker.close();
    await api.close();
    await receiver.stop();
  });

  const apiScrape = () => Scrape.of(`${api.client.baseUrl}/metrics`);
  const workerScrapes = () => Promise.all(workers.map((worker) => Scrape.of(`${workerHttpUrl(worker)}/metrics`)));
  const reaches = (id: string, status: string) =>
    waitUntil(`${id} to be ${status}`, async () => (await api.client.get(`/actions/${id}`)).body.status === status, 15_000);
  const httpAction = (path: string) => ({ action: 'HTTP_REQUEST', executionTime: Date.now(), data: { url: receiver.url(path) } });

  /** The series only workers count: an API exporting them would report zeros that read as facts. */
  const WORKER_ONLY = ['punctual_attempts_total', 'punctual_firing_lag_seconds_bucket', 'punctual_overdue_actions', 'punctual_webhook_deliveries_total'];
  const API_ONLY = ['punctual_rpc_replies_withheld_total'];
  const EVERY_PROCESS = ['punctual_actions_created_total', 'punctual_ready', 'process_cpu_user_seconds_total', 'nodejs_eventloop_lag_seconds'];

  it('start at zero for every action type and outcome, webhooks included, beside the process defaults', async () => {
    for (const scrape of await workerScrapes()) {
      expect(scrape.names()).toEqual(expect.arrayContaining([...WORKER_ONLY, ...EVERY_PROCESS]));
      expect(scrape.names()).not.toEqual(expect.arrayContaining(API_ONLY));
      expect(scrape.labelValues('punctual_attempts_total', 'outcome')).toEqual(['failed', 'no_action', 'succeeded']);
      expect(scrape.labelValues('punctual_webhook_deliveries_total', 'outcome')).toEqual(['failed', 'succeeded']);
      expect(scrape.value('punctual_webhook_deliveries_total')).toBe(0);
    }
  });

  it("the API exports its own series and none of the workers'", async () => {
    const names = (await apiScrape()).names();
    expect(names).toEqual(expect.arrayContaining([...API_ONLY, ...EVERY_PROCESS]));
    expect(names.filter((name) => WORKER_ONLY.some((workerOnly) => name.startsWith(workerOnly.replace(/_bucket$/, ''))))).toEqual([]);
  });

  it('every contract metric moves as actions are created, run, fail and wait', async () => {
    receiver.failNext(1);
    const failing = (await api.client.post('/actions', httpAction('/fails'))).body;
    await reaches(failing.id, 'FAILED');
    const succeeding = (await api.client.post('/actions', httpAction('/succeeds'))).body;
    await reaches(succeeding.id, 'COMPLETED');
    // Two notifications due a minute ago that no running worker serves: overdue.
    const overdue = { ...notificationExample(-60_000), repeat: false, frequency: undefined, executionRemainder: undefined };
    expect((await api.client.post('/actions/batch', { items: [overdue, overdue] })).status).toBe(201);
    // A row of a type no worker knows, as left by an older deployment, due for longer than UNKNOWN_TYPE_GRACE_MS: the promoter ends it NO_ACTION.
    const [{ id: retired }] = await api.db.query(
      `INSERT INTO actions (id, tenant_id, action, status, execution_time, next_attempt_at, schedule_anchor, data, api_key_id)
       VALUES (gen_random_uuid(), 'default', 'RETIRED_TYPE', 'PENDING', now(), now() - interval '1 hour', now(), '{}', 'test-key') RETURNING id`,
    );
    await reaches(retired, 'NO_ACTION');

    const created = await apiScrape();
    expect(created.value('punctual_actions_created_total', { action: 'HTTP_REQUEST', tenant: 'default' })).toBe(2);
    expect(created.value('punctual_actions_created_total', { action: 'SEND_NOTIFICATION', tenant: 'default' })).toBe(2);

    const scrapes = await waitUntil(
      'one worker to report both overdue actions',
      async () => {
        const current = await workerScrapes();
        return current.some((scrape) => scrape.value('punctual_overdue_actions') === 2) ? current : null;
      },
      15_000,
    );
    // One worker counts; the other reports 0, so max (and sum) across processes is the true value.
    expect(scrapes.map((scrape) => scrape.value('punctual_overdue_actions')).sort()).toEqual([0, 2]);
    expect(sumOf(scrapes, 'punctual_attempts_total', { action: 'HTTP_REQUEST', outcome: 'succeeded', tenant: 'default' })).toBe(1);
    expect(sumOf(scrapes, 'punctual_attempts_total', { action: 'HTTP_REQUEST', outcome: 'failed' })).toBe(1);
    expect(sumOf(scrapes, 'punctual_attempts_total', { action: 'RETIRED_TYPE', outcome: 'no_action' })).toBe(1);
    expect(sumOf(scrapes, 'punctual_firing_lag_seconds_count', { action: 'HTTP_REQUEST' })).toBe(2);
    expect(sumOf(scrapes, 'punctual_firing_lag_seconds_bucket', { action: 'HTTP_REQUEST', le: '600' })).toBe(2);
    expect(sumOf(scrapes, 'punctual_webhook_deliveries_total')).toBe(0);
  });

  it('times API requests by method, route template and status, never by raw path', async () => {
    const created = (await api.client.post('/actions', httpAction('/timed'))).body;
    await api.client.get(`/actions/${created.id}`);
    await api.client.get(`/actions/${created.id}/history`);
    await api.client.get('/actions', { unsigned: true });
    await fetch(`${api.client.baseUrl}/no/such/route/${created.id}`);

    const scrape = await apiScrape();
    const count = (labels: Record<string, string>) => scrape.value('punctual_http_request_duration_seconds_count', labels);
    expect(count({ method: 'POST', route: '/actions', status: '201' })).toBeGreaterThanOrEqual(1);
    expect(count({ method: 'GET', route: '/actions/:id', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(count({ method: 'GET', route: '/actions/:id/history', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(count({ method: 'GET', route: '/actions', status: '401' })).toBe(1);
    expect(count({ method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    expect(
      scrape.labelValues('punctual_http_request_duration_seconds_count', 'route').filter((route) => UUID.test(route) || route.includes('/no/')),
    ).toEqual([]);
  });

  it('/metrics needs no signature, and every process answers its probes', async () => {
    const metrics = await fetch(`${api.client.baseUrl}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain;.*version=0\.0\.4/);
    for (const base of [api.client.baseUrl, ...workers.map(workerHttpUrl)]) {
      expect(await (await fetch(`${base}/health/live`)).json()).toEqual({ status: 'ok' });
      const ready = await fetch(`${base}/health/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ status: 'ok', info: { postgres: { status: 'up' }, redis: { status: 'up' } } });
    }
    expect((await (await fetch(`${workerHttpUrl(workers[0])}/health/ready`)).json()).info.consumers).toEqual({ status: 'up' });
    expect((await fetch(`${workerHttpUrl(workers[0])}/elsewhere`)).status).toBe(404);
  });

  it("a stopping worker's readiness fails once its consumers stop taking jobs, and its punctual_ready gauge follows", async () => {
    const ready = async (index: number) => (await Scrape.of(`${workerHttpUrl(workers[index])}/metrics`)).value('punctual_ready');
    expect([await ready(0), await ready(1), (await apiScrape()).value('punctual_ready')]).toEqual([1, 1, 1]);
    const consumers = workers[1].get(QueueConsumers);
    consumers.onModuleDestroy();
    await consumers.beforeApplicationShutdown();
    const probe = await fetch(`${workerHttpUrl(workers[1])}/health/ready`);
    expect(probe.status).toBe(503);
    expect((await probe.json()).error).toEqual({ consumers: { status: 'down', message: 'queue consumers are not running' } });
    expect((await fetch(`${workerHttpUrl(workers[1])}/health/live`)).status).toBe(200);
    await waitUntil('the readiness gauge to drop', async () => (await ready(1)) === 0, 10_000, 200);
    expect(await ready(0)).toBe(1);
  });
});

describe('METRICS_ENABLED=false', () => {
  it('serves no /metrics on the API or the worker, which still answer their probes', async () => {
    const env = { METRICS_ENABLED: 'false' };
    const api = await startApiApp(undefined, env);
    const worker = await startWorker({ env });
    try {
      expect((await fetch(`${api.client.baseUrl}/metrics`)).status).toBe(404);
      expect((await fetch(`${workerHttpUrl(worker)}/metrics`)).status).toBe(404);
      expect((await fetch(`${workerHttpUrl(worker)}/health/ready`)).status).toBe(200);
    } finally {
      await worker.close();
      await api.close();
    }
  });
});
