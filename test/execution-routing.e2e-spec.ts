import { INestApplicationContext } from '@nestjs/common';
import { HttpReceiver, waitUntil } from '@app/testing';
import { BUILT_IN_FULFILLMENT_MODULES } from '@app/built-in-actions';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { messageText, notificationExample } from './support/fixtures';
import { ECHO, EchoModule, TYPES_WITH_ECHO, echoed } from './support/echo-action-type';
import { jobIdFor } from '@app/scheduling';
import { jobState } from './support/queue-state';
import { startWorker } from './support/worker-test-app';

describe('Queues per action type: custom types, rate limits, served types', () => {
  let api: ApiTestApp;
  const receiver = new HttpReceiver();
  const running: INestApplicationContext[] = [];

  beforeAll(async () => {
    await receiver.start();
    api = await startCleanApiApp(TYPES_WITH_ECHO);
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((w) => w.close()));
  });
  afterAll(async () => {
    await api.close();
    await receiver.stop();
  });

  async function worker(env?: Record<string, string>) {
    const started = await startWorker({ actionTypes: TYPES_WITH_ECHO, fulfillmentModules: [...BUILT_IN_FULFILLMENT_MODULES, EchoModule], env });
    running.push(started);
    return started;
  }

  const statusOf = async (id: string) => (await api.client.get(`/actions/${id}`)).body.status;

  it('runs a type that exists only in this test, validating its data like a built-in one', async () => {
    const bad = await api.client.post('/actions', { action: ECHO.type, executionTime: Date.now(), data: { message: '' } });
    expect(bad.status).toBe(400);
    expect(messageText(bad.body)).toMatch(/data.message/);

    await worker();
    const action = (await api.client.post('/actions', { action: ECHO.type, executionTime: Date.now(), data: { message: 'hello' } })).body;
    await waitUntil('the echo action to complete', async () => (await statusOf(action.id)) === 'COMPLETED');
    expect(echoed).toContainEqual({ message: 'hello', idempotencyKey: `${action.id}:1` });
    const history = (await api.client.get(`/actions/${action.id}/history`)).body;
    expect(history.at(-1)).toMatchObject({ to: 'COMPLETED', note: 'echoed hello' });
  });

  it('a 5/s rate limit spreads 20 due actions over at least 3 s', async () => {
    await worker({ ACTION_RATE_LIMITS: 'HTTP_REQUEST=5/1000' });
    const due = Date.now();
    const items = Array.from({ length: 20 }, () => ({ action: 'HTTP_REQUEST', executionTime: due, data: { url: receiver.url('/limited') } }));
    const ids = (await api.client.post('/actions/batch', { items })).body.items.map((a: any) => a.id);
    await waitUntil(
      'all 20 to complete',
      async () => {
        const [row] = await api.db.query(`SELECT count(*)::int AS n FROM actions WHERE id = ANY($1) AND status = 'COMPLETED'`, [ids]);
        return row.n === 20;
      },
      15_000,
    );
    const calls = receiver.callsTo('/limited').map((c) => c.at);
    expect(calls).toHaveLength(20);
    // Four windows of five: the last five cannot start before three full windows after the due time.
    expect(Math.max(...calls) - due).toBeGreaterThanOrEqual(3000);
  });

  it('a worker with WORKER_ACTIONS=HTTP_REQUEST never takes a SEND_NOTIFICATION job', async () => {
    await worker({ WORKER_ACTIONS: 'HTTP_REQUEST' });
    const notification = (await api.client.post('/actions', notificationExample(-1000))).body;
    const http = (await api.client.post('/actions', { action: 'HTTP_REQUEST', executionTime: Date.now(), data: { url: receiver.url('/served') } })).body;
    await waitUntil('the HTTP action to complete', async () => (await statusOf(http.id)) === 'COMPLETED');
    expect(await statusOf(notification.id)).toBe('PENDING');
    // Still waiting for a worker of its type: in BullMQ's prioritized set, as every job has its fair turn's priority.
    expect(await jobState(api.app, 'SEND_NOTIFICATION', jobIdFor({ ...notification, revision: 0 }))).toBe('prioritized');
  });
});
