import { INestApplicationContext, Logger } from '@nestjs/common';
import { LifecycleStore } from '@app/database';
import { ActionScheduler } from '@app/scheduling';
import { HttpReceiver, TcpProxy, waitUntil } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { startWorker } from './support/worker-test-app';

const LEASE_MS = 2000;
/** Sweeps often, so an occurrence heals within the test once Postgres answers. */
const FAST = { CLAIM_LEASE_MS: String(LEASE_MS), PROMOTE_INTERVAL_MS: '200', OVERDUE_GRACE_MS: '500' };

/**
 * A worker that cannot write an outcome to Postgres retries only within a bound: the length of its
 * claim when no fulfillment ran, the claim itself when one did. Postgres is cut (a TCP proxy in
 * front of it, for the worker alone) at the moment the outcome is written, and held down until the
 * worker gives up or has retried; once it answers again, the occurrence heals and runs once.
 */
describe('Recording an outcome while Postgres is unreachable never loops for ever', () => {
  const receiver = new HttpReceiver();
  const postgresProxy = new TcpProxy('127.0.0.1', 5432);
  // eslint-disable-next-line @typescript-eslint/unbound-method -- the original, called below with the worker's scheduler as `this`
  const recordOutcome = ActionScheduler.prototype.recordOutcome;
  let api: ApiTestApp;
  let worker: INestApplicationContext | undefined;
  let warnings: jest.SpyInstance;
  let writes: jest.SpyInstance;

  beforeAll(async () => {
    await Promise.all([receiver.start(), postgresProxy.start()]);
    api = await startCleanApiApp(undefined, FAST);
  });
  beforeEach(() => {
    warnings = jest.spyOn(Logger.prototype, 'warn');
  });
  afterEach(async () => {
    postgresProxy.restore();
    await worker?.close();
    worker = undefined;
    jest.restoreAllMocks();
  });
  afterAll(async () => {
    await api.close();
    await Promise.all([receiver.stop(), postgresProxy.stop()]);
  });

  /** Cuts Postgres for the worker as it first writes an outcome of the action `ids.target`, and counts the worker's writes. */
  const ids = { target: '' };
  function cutAtFirstWrite() {
    writes = jest.spyOn(ActionScheduler.prototype, 'recordOutcome').mockImplementation(function (this: ActionScheduler, outcome) {
      if (outcome.before.id === ids.target && writesOf(ids.target) === 1) postgresProxy.cut();
      return recordOutcome.call(this, outcome);
    });
  }
  const writesOf = (id: string) => writes.mock.calls.filter(([outcome]) => outcome.before.id === id).length;
  const warned = (text: string) => warnings.mock.calls.some(([message]) => String(message).includes(text));
  const startProxiedWorker = async (env: Record<string, string>) => {
    worker = await startWorker({ env: { ...FAST, ...env, DATABASE_URL: postgresProxy.proxied(process.env.DATABASE_URL!) } });
  };
  const completed = (id: string) =>
    waitUntil(`${id} to complete`, async () => ((await statusOf(id)).status === 'COMPLETED' ? statusOf(id) : null), 30_000);
  const statusOf = async (id: string) => (await api.client.get(`/actions/${id}`)).body;
  const historyOf = async (id: string) => (await api.client.get(`/actions/${id}/history`)).body as { to: string; note: string | null }[];
  const interruptions = (history: { note: string | null }[]) => history.filter((entry) => /was interrupted/.test(entry.note ?? ''));
  // Due a moment after it is created, so that the spec knows its id before the worker runs it.
  const httpAction = (path: string) => ({ action: 'HTTP_REQUEST', executionTime: Date.now() + 500, data: { url: receiver.url(path) } });

  it('a takeover (no fulfillment ran) gives its write up within the claim, and the occurrence heals: run once, interrupted once', async () => {
    const action = (await api.client.post('/actions', httpAction('/takeover'))).body;
    // A worker that died mid-run: its claim of 100 ms lapses at once, and no one renews it.
    const store = api.app.get(LifecycleStore);
    const [{ revision }] = await api.db.query('SELECT revision FROM actions WHERE id = $1', [action.id]);
    await waitUntil('a claim that no one renews', async () => (await store.claim(action.id, revision, 'HTTP_REQUEST', 100)).kind === 'claimed');
    ids.target = action.id;
    cutAtFirstWrite();
    await startProxiedWorker({});

    const giveUp = `Gave up recording ${action.id}:1`;
    await waitUntil('the worker to give the interruption up', () => warned(giveUp), 15_000);
    expect(await historyOf(action.id)).toHaveLength(2); // created, claimed by the dead worker: nothing written since
    postgresProxy.restore();

    await completed(action.id);
    expect(receiver.callsByIdempotencyKey().get(`${action.id}:1`)).toBe(1);
    expect(interruptions(await historyOf(action.id))).toHaveLength(1);
  });

  it('a fulfillment that ran gives its write up only once its claim lapsed, and is run again once with the same key', async () => {
    cutAtFirstWrite();
    await startProxiedWorker({});
    const action = (await api.client.post('/actions', httpAction('/lapsed'))).body;
    ids.target = action.id;

    await waitUntil('the worker to give the outcome up', () => warned(`Gave up recording ${action.id}:1`), 15_000);
    // The claim's lease stopped the attempt first: the write was retried for as long as the claim held.
    const stopped = warnings.mock.calls.findIndex(([message]) => String(message).startsWith(`Stopping ${action.id}:1 attempt 1:`));
    const gaveUp = warnings.mock.calls.findIndex(([message]) => String(message).startsWith(`Gave up recording ${action.id}:1`));
    expect(stopped).toBeGreaterThanOrEqual(0);
    expect(stopped).toBeLessThan(gaveUp);
    expect(writesOf(action.id)).toBeGreaterThan(1);
    postgresProxy.restore();

    await completed(action.id);
    // At least once for interrupted work: the lost attempt counts as failed and runs again with the same idempotency key.
    expect(receiver.callsByIdempotencyKey().get(`${action.id}:1`)).toBe(2);
    expect(interruptions(await historyOf(action.id))).toHaveLength(1);
  });

  it('a fulfillment that ran keeps retrying its write while its claim holds: recorded once it can be, run once', async () => {
    cutAtFirstWrite();
    await startProxiedWorker({ CLAIM_LEASE_MS: '20000' });
    const action = (await api.client.post('/actions', httpAction('/held'))).body;
    ids.target = action.id;

    await waitUntil('the write to be retried', () => writesOf(action.id) >= 4, 15_000);
    postgresProxy.restore();

    const done = await completed(action.id);
    expect(done.retryCount).toBe(0);
    expect(receiver.callsByIdempotencyKey().get(`${action.id}:1`)).toBe(1);
    expect(warned(`Gave up recording ${action.id}:1`)).toBe(false);
    expect(interruptions(await historyOf(action.id))).toHaveLength(0);
  });
});
