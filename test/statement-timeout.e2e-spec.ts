import { Client } from 'pg';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { httpRequestExample, storedCounts } from './support/fixtures';
import { queuedJobs } from './support/queue-state';

const HOUR = 3_600_000;

describe('DATABASE_STATEMENT_TIMEOUT_MS and DATABASE_POOL_SIZE', () => {
  let api: ApiTestApp;
  let locker: Client;
  let id: string;

  beforeAll(async () => {
    api = await startCleanApiApp(undefined, { DATABASE_STATEMENT_TIMEOUT_MS: '300', DATABASE_POOL_SIZE: '2' });
    id = (await api.client.post('/actions', httpRequestExample(HOUR))).body.id;
    locker = new Client({ connectionString: process.env.DATABASE_URL });
    await locker.connect();
  });
  afterAll(async () => {
    await locker.end();
    await api.close();
  });

  /** Holds an exclusive lock on `actions` (as a long migration would) while `work` runs. */
  async function whileLocked<T>(work: () => Promise<T>): Promise<T> {
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE actions IN ACCESS EXCLUSIVE MODE');
    try {
      return await work();
    } finally {
      await locker.query('ROLLBACK');
    }
  }

  it('a statement that waits past the timeout answers 503, says why, and changes nothing', async () => {
    const before = { counts: await storedCounts(api.db), jobs: await queuedJobs(api.app) };
    const [read, create] = await whileLocked(() => Promise.all([api.client.get(`/actions/${id}`), api.client.post('/actions', httpRequestExample(HOUR))]));
    for (const response of [read, create]) {
      expect(response.status).toBe(503);
      expect(response.body).toEqual({
        statusCode: 503,
        error: 'Service Unavailable',
        message: 'The database did not finish within the statement timeout of 300 ms; the request was cancelled and changed nothing. Try again shortly.',
      });
    }
    expect(await storedCounts(api.db)).toEqual(before.counts);
    expect(await queuedJobs(api.app)).toBe(before.jobs);
    expect((await api.client.get(`/actions/${id}`)).status).toBe(200);
  });

  it('never runs more statements at once than the pool size', async () => {
    const started = Date.now();
    const finishedAfterMs = await whileLocked(() =>
      Promise.all(
        Array.from({ length: 6 }, async () => {
          const response = await api.client.get(`/actions/${id}`);
          expect(response.status).toBe(503);
          return Date.now() - started;
        }),
      ),
    );
    // Two connections: the six statements wait their 300 ms two at a time, so the last gives up after three rounds.
    expect(Math.max(...finishedAfterMs)).toBeGreaterThanOrEqual(3 * 300);
  });
});
