import { INestApplicationContext } from '@nestjs/common';
import { HttpReceiver, TcpProxy, waitUntil } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { promotionsSinceNow } from './support/loop-runs';
import { startWorker } from './support/worker-test-app';

/** Short leases and sweeps, so that a fulfillment run twice would show within the test. */
const FAST = { CLAIM_LEASE_MS: '1000', PROMOTE_INTERVAL_MS: '200', OVERDUE_GRACE_MS: '500' };

/** A fulfillment that ran is recorded, whatever its answer holds and whatever the database does meanwhile: it never runs again. */
describe('Recording an attempt never re-runs its fulfillment', () => {
  const receiver = new HttpReceiver();
  const postgresProxy = new TcpProxy('127.0.0.1', 5432);
  let api: ApiTestApp;
  let worker: INestApplicationContext | undefined;

  beforeAll(async () => {
    await Promise.all([receiver.start(), postgresProxy.start()]);
    api = await startCleanApiApp(undefined, FAST);
  });
  afterEach(async () => {
    postgresProxy.restore();
    await worker?.close();
    worker = undefined;
  });
  afterAll(async () => {
    await api.close();
    await Promise.all([receiver.stop(), postgresProxy.stop()]);
  });

  const statusOf = async (id: string) => (await api.client.get(`/actions/${id}`)).body;
  const completed = (id: string) =>
    waitUntil(`${id} to complete`, async () => ((await statusOf(id)).status === 'COMPLETED' ? statusOf(id) : null), 10_000);
  const httpAction = (path: string) => ({ action: 'HTTP_REQUEST', executionTime: Date.now(), data: { url: receiver.url(path) } });

  it('an answer with a NUL byte (which Postgres cannot store) is recorded sanitised: COMPLETED after exactly one call', async () => {
    worker = await startWorker({ env: FAST });
    receiver.answerNextWith('{"text":"before\u0000after"}');
    const action = (await api.client.post('/actions', httpAction('/nul'))).body;
    await completed(action.id);
    // Two sweeps since: an attempt whose outcome was lost would have been queued again by now.
    await promotionsSinceNow(worker);
    expect(receiver.callsTo('/nul')).toHaveLength(1);
    const history = (await api.client.get(`/actions/${action.id}/history`)).body;
    expect(history.at(-1).note).toBe('HTTP 200: {"text":"before\uFFFDafter"}');
  });

  it('Postgres unreachable when the outcome is written: the write is retried, the fulfillment is not', async () => {
    worker = await startWorker({ env: { ...FAST, CLAIM_LEASE_MS: '10000', DATABASE_URL: postgresProxy.proxied(process.env.DATABASE_URL!) } });
    receiver.delayNext(1, 800);
    const action = (await api.client.post('/actions', httpAction('/outage'))).body;
    await waitUntil('the call to arrive', () => receiver.callsTo('/outage').length === 1);
    postgresProxy.cut();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    postgresProxy.restore();
    await completed(action.id);
    expect(receiver.callsTo('/outage')).toHaveLength(1);
  });
});
