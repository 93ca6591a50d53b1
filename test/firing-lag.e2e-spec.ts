import { INestApplicationContext } from '@nestjs/common';
import { HttpReceiver, Scrape, waitUntil } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { basicAuth } from './support/console-browser';
import { httpRequestExample } from './support/fixtures';
import { startWorker, workerHttpUrl } from './support/worker-test-app';

const HOUR = 3_600_000;
/** How late an attempt that ran at once may start on a loaded machine: far below the hour its due time is past. */
const AT_ONCE_MS = 60_000;

interface Lag {
  count: number;
  sumSeconds: number;
}

/** A due time already past when an occurrence became runnable is not lateness: the metric, the history and the console agree. */
describe('Firing lag counts from when an occurrence became runnable', () => {
  const receiver = new HttpReceiver();
  let api: ApiTestApp;
  let worker: INestApplicationContext;

  beforeAll(async () => {
    await receiver.start();
    api = await startCleanApiApp();
    worker = await startWorker({ env: { WORKER_ACTIONS: 'HTTP_REQUEST' } });
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await receiver.stop();
  });

  const lagSoFar = async (): Promise<Lag> => {
    const scrape = await Scrape.of(`${workerHttpUrl(worker)}/metrics`);
    const labels = { action: 'HTTP_REQUEST' };
    return { count: scrape.value('punctual_firing_lag_seconds_count', labels), sumSeconds: scrape.value('punctual_firing_lag_seconds_sum', labels) };
  };
  const action = (path: string, inMs: number) => httpRequestExample(inMs, { data: { url: receiver.url(path) } });

  /** The action's one attempt ran, and the histogram, its claim's history entry and its console page each say it started at once. */
  async function expectStartedAtOnce(id: string, before: Lag): Promise<void> {
    await waitUntil(`${id} to complete`, async () => (await api.client.get(`/actions/${id}`)).body.status === 'COMPLETED', 30_000);
    const after = await waitUntil('the attempt in the firing lag histogram', async () => {
      const lag = await lagSoFar();
      return lag.count === before.count + 1 ? lag : null;
    });
    expect(after.sumSeconds - before.sumSeconds).toBeLessThan(AT_ONCE_MS / 1000);

    const claims: { lag_ms: number }[] = await api.db.query(
      `SELECT extract(epoch FROM at - due_at) * 1000 AS lag_ms FROM action_history
       WHERE action_id = $1 AND from_status = 'PENDING' AND to_status = 'IN_PROGRESS'`,
      [id],
    );
    expect(claims).toHaveLength(1);
    expect(Number(claims[0].lag_ms)).toBeGreaterThanOrEqual(0);
    expect(Number(claims[0].lag_ms)).toBeLessThan(AT_ONCE_MS);

    const page = await (await fetch(`${api.client.baseUrl}/admin/actions/${id}`, { headers: basicAuth() })).text();
    const [, amount, unit] = /started ([\d.]+) (ms|s|min) after it became runnable/.exec(page) ?? [];
    expect(unit === 'min' ? null : Number(amount) * (unit === 's' ? 1000 : 1)).toBeLessThan(AT_ONCE_MS);
  }

  it('an action created with an executionTime an hour past runs at once, and adds about nothing to the lag', async () => {
    const before = await lagSoFar();
    const created = await api.client.post('/actions', action('/created-late', -HOUR));
    expect(created.status).toBe(201);
    await expectStartedAtOnce(created.body.id, before);
  });

  it('an action patched to an hour past runs at once, and adds about nothing to the lag', async () => {
    const { id } = (await api.client.post('/actions', action('/patched-late', HOUR))).body;
    const before = await lagSoFar();
    expect((await api.client.patch(`/actions/${id}`, { executionTime: Date.now() - HOUR })).status).toBe(200);
    await expectStartedAtOnce(id, before);
  });

  it('an action resumed an hour after it was due runs at once, and adds about nothing to the lag', async () => {
    const { id } = (await api.client.post('/actions', action('/resumed-late', HOUR))).body;
    expect((await api.client.post(`/actions/${id}/pause`, {})).status).toBe(200);
    // As an hour of pause past its time would leave it.
    await api.db.query(
      `UPDATE actions SET execution_time = now() - interval '1 hour', next_attempt_at = now() - interval '1 hour',
         schedule_anchor = now() - interval '1 hour', runnable_since = now() - interval '2 hours' WHERE id = $1`,
      [id],
    );
    const before = await lagSoFar();
    expect((await api.client.post(`/actions/${id}/resume`, {})).status).toBe(200);
    await expectStartedAtOnce(id, before);
  });
});
