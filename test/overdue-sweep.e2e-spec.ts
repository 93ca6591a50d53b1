import { INestApplicationContext } from '@nestjs/common';
import { HttpReceiver, waitUntil } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { startWorker } from './support/worker-test-app';

const FAST = { PROMOTE_INTERVAL_MS: '200', OVERDUE_GRACE_MS: '300', UNKNOWN_TYPE_GRACE_MS: '1000' };
const NO_WORKER_KNEW = 'No live worker knew action type RETIRED_TYPE while it was due';

/**
 * The sweep that re-queues lost jobs cannot be starved: thousands of due rows it cannot run
 * (a type nobody knows, a type no running worker serves) never hide one it can. Rows are
 * inserted straight into Postgres, as rows edited by hand or left by an older deployment would be.
 */
describe('The overdue sweep and NO_ACTION', () => {
  const receiver = new HttpReceiver();
  let api: ApiTestApp;
  let worker: INestApplicationContext | undefined;

  beforeAll(async () => {
    await receiver.start();
    api = await startCleanApiApp(undefined, FAST);
  });
  afterEach(async () => {
    await worker?.close();
    worker = undefined;
  });
  afterAll(async () => {
    await api.close();
    await receiver.stop();
  });

  /** `count` PENDING rows of `type`, due `agoMs` ago, with no job in any queue; returns their ids. */
  async function insertDueRows(type: string, count: number, agoMs: number, data: object): Promise<string[]> {
    const rows: { id: string }[] = await api.db.query(
      `INSERT INTO actions (id, tenant_id, action, status, execution_time, next_attempt_at, schedule_anchor, data, api_key_id)
       SELECT gen_random_uuid(), 'default', $1, 'PENDING', t, t, t, $3::jsonb, 'test-key'
       FROM generate_series(1, $2) AS n, LATERAL (SELECT now() - ($4 || ' milliseconds')::interval - n * interval '1 ms' AS t) AS due
       RETURNING id`,
      [type, count, JSON.stringify(data), agoMs],
    );
    return rows.map((r) => r.id);
  }
  const countByStatus = async (ids: string[], status: string) =>
    (await api.db.query(`SELECT count(*)::int AS n FROM actions WHERE id = ANY($1) AND status = $2`, [ids, status]))[0].n as number;

  it('2,000 rows of an unknown type end NO_ACTION, 2,000 of an unserved type wait, and one lost job of a served type still runs at once', async () => {
    const unknown = await insertDueRows('RETIRED_TYPE', 2000, 3_600_000, {});
    const unserved = await insertDueRows('SEND_NOTIFICATION', 2000, 3_600_000, {
      notificationType: 'SMS',
      mobile: '1',
      subject: 's',
      name: 'n',
      templateType: 't',
    });
    const [lost] = await insertDueRows('HTTP_REQUEST', 1, 1000, { url: receiver.url('/lost') });
    worker = await startWorker({ env: { ...FAST, WORKER_ACTIONS: 'HTTP_REQUEST' } });

    await waitUntil('the lost job to run', () => receiver.callsTo('/lost').length === 1, 5000);
    await waitUntil('every unknown-type row to end NO_ACTION', async () => (await countByStatus(unknown, 'NO_ACTION')) === unknown.length, 10_000);
    expect(await countByStatus(unserved, 'PENDING')).toBe(unserved.length);
    expect(await countByStatus([lost], 'COMPLETED')).toBe(1);
    const history = (await api.client.get(`/actions/${unknown[0]}/history`)).body;
    expect(history.at(-1)).toMatchObject({ from: 'PENDING', to: 'NO_ACTION', attempt: 0, note: NO_WORKER_KNEW });
  });

  it('never ends a paused action of an unknown type, however long it has been due', async () => {
    const [paused, running] = await insertDueRows('RETIRED_TYPE', 2, 3_600_000, {});
    await api.db.query(`UPDATE actions SET paused_from = occurrence WHERE id = $1`, [paused]);
    worker = await startWorker({ env: FAST });
    // One read of the due rows of unknown types finds both or neither: the paused one is left alone.
    await waitUntil('the one not paused to end NO_ACTION', async () => (await countByStatus([running], 'NO_ACTION')) === 1, 10_000);
    expect(await countByStatus([paused], 'PENDING')).toBe(1);
    const history = (await api.client.get(`/actions/${paused}/history`)).body;
    expect(history.filter((h: { to: string }) => h.to === 'NO_ACTION')).toHaveLength(0);
  });

  it('ends an attempt of an unknown type whose worker died (its claim lapsed) NO_ACTION, and leaves one whose claim holds', async () => {
    const [lapsed, held] = await insertDueRows('RETIRED_TYPE', 2, 3_600_000, {});
    await api.db.query(
      `UPDATE actions SET status = 'IN_PROGRESS', claim_token = gen_random_uuid(),
         claimed_until = CASE WHEN id = $1 THEN now() - interval '1 hour' ELSE now() + interval '1 hour' END
       WHERE id = ANY($2)`,
      [lapsed, [lapsed, held]],
    );
    worker = await startWorker({ env: FAST });
    await waitUntil('the lapsed attempt to end NO_ACTION', async () => (await countByStatus([lapsed], 'NO_ACTION')) === 1, 10_000);
    expect(await countByStatus([held], 'IN_PROGRESS')).toBe(1);
    const history = (await api.client.get(`/actions/${lapsed}/history`)).body;
    expect(history.at(-1)).toMatchObject({ from: 'IN_PROGRESS', to: 'NO_ACTION', attempt: 1, note: NO_WORKER_KNEW });
  });

  it('a NO_ACTION action retried by hand ends NO_ACTION again, whether or not a job was ever queued for it', async () => {
    const [id] = await insertDueRows('RETIRED_TYPE', 1, 1000, {});
    worker = await startWorker({ env: FAST });
    await waitUntil('NO_ACTION', async () => (await countByStatus([id], 'NO_ACTION')) === 1, 5000);
    const retried = await api.client.post(`/actions/${id}/retry`);
    expect(retried.body.status).toBe('PENDING');
    await waitUntil('NO_ACTION again', async () => (await countByStatus([id], 'NO_ACTION')) === 1, 5000);
    const history = (await api.client.get(`/actions/${id}/history`)).body;
    expect(history.map((h: { to: string }) => h.to)).toEqual(['NO_ACTION', 'PENDING', 'NO_ACTION']);
  });
});
