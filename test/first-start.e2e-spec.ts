import { startCleanApiApp } from './support/api-test-app';
import { API_READY, AppProcess, WORKER_READY } from './support/app-process';
import { freePort } from './support/free-port';
import { flushRedis, testRedis } from './support/test-redis';

// What a newcomer's first `npm run dev` prints: the apps on empty tables and an empty Redis.
describe('a first start', () => {
  const processes: AppProcess[] = [];
  afterAll(() => processes.forEach((child) => child.kill('SIGKILL')));

  beforeAll(async () => {
    const api = await startCleanApiApp();
    await api.close();
    const redis = testRedis();
    await flushRedis(redis);
    await redis.quit();
  });

  it('prints a short banner naming every door at the real port, and not the routes Nest mapped', async () => {
    const port = await freePort();
    const api = new AppProcess('api', { PORT: port });
    processes.push(api);
    await api.ready(API_READY, 120_000);
    const base = `http://localhost:${port}`;
    for (const door of [
      `listening on ${base}`,
      `Console     ${base}/admin `,
      `Bull Board  ${base}/admin/queues`,
      `API docs    ${base}/docs`,
      `Metrics     ${base}/metrics`,
    ]) {
      expect(api.logs()).toContain(door);
    }
    expect(api.logs()).not.toMatch(/Mapped \{|RouterExplorer|RoutesResolver|InstanceLoader/);
    expect(api.logs().trim().split('\n').length).toBeLessThanOrEqual(15);
  }, 180_000);

  it('marks the empty Redis without warning that it was reset', async () => {
    const worker = new AppProcess('worker');
    processes.push(worker);
    await worker.ready(WORKER_READY, 120_000);
    await worker.ready(/Redis holds no queue markers yet .*nothing to re-queue/, 60_000);
    expect(worker.logs()).not.toMatch(/WARN|was reset/);
  }, 180_000);
});
