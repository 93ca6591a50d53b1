import { INestApplicationContext } from '@nestjs/common';
import { HttpReceiver, waitUntil } from '@app/testing';
import { BUILT_IN_FULFILLMENT_MODULES } from '@app/built-in-actions';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { MAX_RETRY_LATER_MS } from '@punctual/sdk';
import { RETRY_LATER, RetryLaterModule, TAMPERED_RETRY_LATER, TYPES_WITH_RETRY_LATER, attemptsStarted } from './support/retry-later-action-type';
import { startWorker } from './support/worker-test-app';

// A fulfillment that throws RetryLaterError(ms) has its next attempt due ms later, not after the
// backoff (50–400 ms in the tests), within the retry policy's attempts.
/** The history of an action whose first attempt asked for a retry and whose second completed: (from, to, attempt). */
const RETRIED_ONCE_THEN_COMPLETED = [
  [null, 'PENDING', 0],
  ['PENDING', 'IN_PROGRESS', 1],
  ['IN_PROGRESS', 'PENDING', 1],
  ['PENDING', 'IN_PROGRESS', 2],
  ['IN_PROGRESS', 'COMPLETED', 2],
];

describe('RetryLaterError through the real worker', () => {
  let api: ApiTestApp;
  let worker: INestApplicationContext;
  const receiver = new HttpReceiver();

  beforeAll(async () => {
    await receiver.start();
    api = await startCleanApiApp(TYPES_WITH_RETRY_LATER);
    worker = await startWorker({ actionTypes: TYPES_WITH_RETRY_LATER, fulfillmentModules: [...BUILT_IN_FULFILLMENT_MODULES, RetryLaterModule] });
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await receiver.stop();
  });

  const reaches = (id: string, status: string) =>
    waitUntil(`action ${id} to be ${status}`, async () => {
      const action = (await api.client.get(`/actions/${id}`)).body;
      return action.status === status ? action : null;
    });

  it('starts the second attempt no earlier than the delay asked for, and the history says so', async () => {
    const created = await api.client.post('/actions', { action: RETRY_LATER.type, executionTime: Date.now(), data: { delayMs: 1500 } });
    expect(created.status).toBe(201);
    await reaches(created.body.id, 'COMPLETED');

    const [first, second] = attemptsStarted.get(`${created.body.id}:1`)!;
    expect(second - first).toBeGreaterThanOrEqual(1500);
    const history = (await api.client.get(`/actions/${created.body.id}/history`)).body;
    expect(history.map((h: any) => [h.from, h.to, h.attempt])).toEqual(RETRIED_ONCE_THEN_COMPLETED);
    expect(history[2].note).toBe('downstream is busy; retry asked in 1500 ms');
    expect(Date.parse(history[3].at) - Date.parse(history[2].at)).toBeGreaterThanOrEqual(1500);
  });

  it('fails the action as usual when the retry policy has no attempt left', async () => {
    const created = await api.client.post('/actions', {
      action: RETRY_LATER.type,
      executionTime: Date.now(),
      data: { delayMs: 100 },
      retryPolicy: { maxRetries: 0, backoff: { type: 'fixed', delayMs: 100 } },
    });
    expect(created.status).toBe(201);
    const failed = await reaches(created.body.id, 'FAILED');
    expect(failed).toMatchObject({ retryCount: 1, lastError: 'downstream is busy; retry asked in 100 ms' });
    expect(attemptsStarted.get(`${created.body.id}:1`)).toHaveLength(1);
  });

  it('retries an HTTP_REQUEST answered 429 with Retry-After after that many seconds', async () => {
    receiver.failNext(1, 429, 'slow down', { 'retry-after': '1' });
    const created = await api.client.post('/actions', { action: 'HTTP_REQUEST', executionTime: Date.now(), data: { url: receiver.url('/busy') } });
    expect(created.status).toBe(201);
    await reaches(created.body.id, 'COMPLETED');
    const [first, second] = receiver.callsTo('/busy');
    expect(second.at - first.at).toBeGreaterThanOrEqual(1000);
    const history = (await api.client.get(`/actions/${created.body.id}/history`)).body;
    expect(history[2]).toMatchObject({
      to: 'PENDING',
      attempt: 1,
      note: expect.stringMatching(/^HTTP 429: slow down \(from 127\.0\.0\.1:\d+\); retry asked in 1000 ms$/),
    });
  });

  it.each(['huge', 'infinite'])(
    'bounds a delayMs overwritten with a %s one after construction: the retry is due a day after the failure, no later',
    async (delay) => {
      const created = await api.client.post('/actions', { action: TAMPERED_RETRY_LATER.type, executionTime: Date.now(), data: { delay } });
      expect(created.status).toBe(201);
      const waiting = await waitUntil('the first attempt to fail', async () => {
        const action = (await api.client.get(`/actions/${created.body.id}`)).body;
        return action.status === 'PENDING' && action.retryCount === 1 ? action : null;
      });
      const failedAt = Date.parse(waiting.updatedAt);
      expect(Date.parse(waiting.nextAttemptAt) - failedAt).toBeLessThanOrEqual(MAX_RETRY_LATER_MS);
      expect(Date.parse(waiting.nextAttemptAt) - failedAt).toBeGreaterThan(MAX_RETRY_LATER_MS - 60_000);
    },
  );

  it.each(['nan', 'negative'])(
    'a delayMs overwritten with a %s one does not leave the attempt IN_PROGRESS: it is retried after the backoff',
    async (delay) => {
      const created = await api.client.post('/actions', { action: TAMPERED_RETRY_LATER.type, executionTime: Date.now(), data: { delay } });
      expect(created.status).toBe(201);
      await reaches(created.body.id, 'COMPLETED');
      const history = (await api.client.get(`/actions/${created.body.id}/history`)).body;
      expect(history.map((h: any) => [h.from, h.to, h.attempt])).toEqual(RETRIED_ONCE_THEN_COMPLETED);
    },
  );
});
