import { INestApplicationContext } from '@nestjs/common';
import { HttpReceiver, waitUntil } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { addJob, addJobByHand, jobState } from './support/queue-state';
import { startWorker } from './support/worker-test-app';

describe('At most one run per occurrence; changed and deleted actions never run at their old time', () => {
  let api: ApiTestApp;
  let workers: INestApplicationContext[];
  const receiver = new HttpReceiver();

  beforeAll(async () => {
    await receiver.start();
    api = await startCleanApiApp(undefined, { LOCK_WINDOW_MS: '100' });
    workers = [await startWorker(), await startWorker()];
  });
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.close()));
    await api.close();
    await receiver.stop();
  });

  const httpAction = (executionTime: number, path: string) => ({ action: 'HTTP_REQUEST', executionTime, data: { url: receiver.url(path) } });

  async function countStatuses(ids: string[], status: string): Promise<number> {
    const [row] = await api.db.query(`SELECT count(*)::int AS n FROM actions WHERE id = ANY($1) AND status = $2`, [ids, status]);
    return row.n;
  }

  it('two workers and duplicated jobs: the receiver sees one call per occurrence', async () => {
    const items = Array.from({ length: 30 }, () => httpAction(Date.now() + 400, '/once'));
    const created = (await api.client.post('/actions/batch', { items })).body.items;
    const ids: string[] = created.map((a: any) => a.id);
    for (const action of created) {
      for (let copy = 1; copy <= 4; copy += 1) await addJobByHand(api.app, action, `dup-${action.id}-${copy}`);
    }
    await waitUntil('every action to complete', async () => (await countStatuses(ids, 'COMPLETED')) === ids.length);
    const calls = receiver.callsByIdempotencyKey();
    expect(ids.map((id) => calls.get(`${id}:1`))).toEqual(ids.map(() => 1));
    const [row] = await api.db.query(`SELECT count(*)::int AS n FROM action_history WHERE action_id = ANY($1) AND to_status = 'IN_PROGRESS'`, [ids]);
    expect(row.n).toBe(ids.length);
  });

  it('a patched executionTime: nothing runs at the old time', async () => {
    const action = (await api.client.post('/actions', httpAction(Date.now() + 700, '/moved'))).body;
    const patched = await api.client.patch(`/actions/${action.id}`, { executionTime: Date.now() + 3_600_000 });
    expect(patched.status).toBe(200);
    // Give the old job time to fire if it were still there, plus a margin.
    await waitUntil('the old due time to pass', () => Date.now() > new Date(action.executionTime).getTime() + 800);
    expect(receiver.callsTo('/moved')).toHaveLength(0);
    expect((await api.client.get(`/actions/${action.id}`)).body.status).toBe('PENDING');
  });

  it('a stale job of an old revision is ignored even if still queued', async () => {
    const action = (await api.client.post('/actions', httpAction(Date.now() + 3_600_000, '/stale'))).body;
    await api.client.patch(`/actions/${action.id}`, { executionTime: Date.now() + 7_200_000 });
    // Queue a job for revision 0, as a copy left behind by a crash would be.
    await addJob(api.app, 'HTTP_REQUEST', action.id, 0, `stale-${action.id}`);
    // A completed job is removed as it completes.
    await waitUntil('the stale job to be processed', async () => (await jobState(api.app, 'HTTP_REQUEST', `stale-${action.id}`)) === 'unknown');
    expect(receiver.callsTo('/stale')).toHaveLength(0);
    expect((await api.client.get(`/actions/${action.id}`)).body.status).toBe('PENDING');
  });

  it('a deleted action never runs', async () => {
    const action = (await api.client.post('/actions', httpAction(Date.now() + 700, '/deleted'))).body;
    expect((await api.client.delete(`/actions/${action.id}`)).status).toBe(204);
    await addJob(api.app, 'HTTP_REQUEST', action.id, 0, `after-delete-${action.id}`);
    await waitUntil('the old due time to pass', () => Date.now() > new Date(action.executionTime).getTime() + 800);
    expect(receiver.callsTo('/deleted')).toHaveLength(0);
  });
});
