import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpReceiver, LocalRedisCluster, waitUntil } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { AppProcess, WORKER_READY } from './support/app-process';

/** Ports of this spec's own cluster, apart from the one the e2e-cluster tier shares. */
const FIRST_PORT = 7200;
const BEFORE = 200;
const DURING = 50;

describe('A Redis Cluster master dies with actions due across it (contract §14)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'punctual-failover-'));
  const cluster = new LocalRedisCluster(FIRST_PORT, dir);
  const receiver = new HttpReceiver();
  const env = {
    REDIS_CLUSTER_NODES: cluster.nodes,
    QUEUE_PREFIX: 'punctual-test-failover',
    // Lost jobs are found and queued again within about a second.
    PROMOTE_INTERVAL_MS: '200',
    OVERDUE_GRACE_MS: '1000',
  };
  let api: ApiTestApp;
  // A process of its own: a BullMQ consumer that cannot close while its cluster is broken is killed
  // with it, rather than left retrying inside the test runner.
  let worker: AppProcess;

  beforeAll(async () => {
    await cluster.start();
    await receiver.start();
    api = await startCleanApiApp(undefined, env);
    worker = await new AppProcess('worker', env).ready(WORKER_READY, 60_000);
  }, 120_000);
  afterAll(async () => {
    worker?.kill('SIGKILL');
    await worker?.exited;
    await api?.close();
    await receiver.stop();
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  const create = async (count: number, spreadMs: number) => {
    const items = Array.from({ length: count }, (_, i) => ({
      action: 'HTTP_REQUEST',
      executionTime: new Date(Date.now() + 1_000 + Math.floor((i / count) * spreadMs)).toISOString(),
      data: { url: receiver.url('/failover') },
    }));
    const response = await api.client.post('/actions/batch', { items });
    expect(response.status).toBe(201);
    return (response.body.items as { id: string; executionTime: string }[]).map(({ id, executionTime }) => ({ id, due: Date.parse(executionTime) }));
  };

  it('its replica takes over: every action runs exactly once, none early, those created during the failover too', async () => {
    const actions = await create(BEFORE, 8_000);
    // The master holding the HTTP_REQUEST queue's hash slot: its jobs, locks and markers die with it.
    const victim = await cluster.masterOf('HTTP_REQUEST');
    await waitUntil('the first actions to run', () => receiver.callsTo('/failover').length >= 10, 20_000);
    const failedOver = cluster.failOver(victim);
    // Created while the queue has no master: stored in Postgres, queued once the reconciler finds them overdue.
    actions.push(...(await create(DURING, 2_000)));
    await failedOver;
    await cluster.healthy();

    const unfinished = async (): Promise<{ id: string; status: string; next_attempt_at: Date; claimed_until: Date | null }[]> =>
      api.db.query(`SELECT id, status, next_attempt_at, claimed_until FROM actions WHERE id = ANY($1) AND status <> 'COMPLETED'`, [
        actions.map((a) => a.id),
      ]);
    await waitUntil('every action to complete', async () => (await unfinished()).length === 0, 90_000, 250).catch(async (error: Error) => {
      // Says what was left and what the worker saw, so a failure here can be read without running it again.
      throw new Error(`${error.message}\nunfinished: ${JSON.stringify(await unfinished())}\nworker:\n${worker.logs().slice(-5000)}`);
    });
    const calls = receiver.callsTo('/failover');
    const callsPerKey = receiver.callsByIdempotencyKey();
    expect(actions.filter(({ id }) => callsPerKey.get(`${id}:1`) !== 1).map(({ id }) => `${id}: ${callsPerKey.get(`${id}:1`) ?? 0}`)).toEqual([]);
    expect(calls).toHaveLength(actions.length);
    const dueOf = new Map(actions.map(({ id, due }) => [`${id}:1`, due]));
    const early = calls.filter((call) => call.at < dueOf.get(String(call.headers['idempotency-key']))!);
    expect(early).toEqual([]);

    // The old master comes back empty, as a replica of its successor.
    await cluster.restartAsReplica(victim);
  }, 240_000);
});
