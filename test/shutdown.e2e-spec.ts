import { join } from 'node:path';
import { HttpReceiver, waitUntil } from '@app/testing';
import { BUILT_IN_FULFILLMENT_MODULES } from '@app/built-in-actions';
import { useProcessStack } from './support/process-stack';
import { AppProcess, WORKER_READY } from './support/app-process';
import { TYPES_WITH_WAIT, WaitModule } from './support/waiting-worker';
import { deliveriesWhen, subscribe } from './support/webhooks';
import { startWorker } from './support/worker-test-app';

/** A short shutdown wait, and short leases so that an abandoned attempt is taken over within seconds. */
const FAST = { CLAIM_LEASE_MS: '1500', PROMOTE_INTERVAL_MS: '200', OVERDUE_GRACE_MS: '1000', SHUTDOWN_TIMEOUT_MS: '1000' };
const WAITING_WORKER = join(__dirname, 'support', 'waiting-worker.ts');
/** How long the spec lets a stopping worker take: far less than the calls it leaves would. */
const EXIT_BOUND_MS = 20_000;

/**
 * SIGTERM to a worker whose attempts outlive SHUTDOWN_TIMEOUT_MS: they are stopped and recorded
 * as failed attempts, and the process exits, instead of running on until an orchestrator kills
 * it after the call finished (which would run that call again).
 */
describe('A worker stopping with attempts still running', () => {
  const stack = useProcessStack(FAST, TYPES_WITH_WAIT);

  const statusOf = async (id: string) => (await stack.api.client.get(`/actions/${id}`)).body;
  const historyOf = async (id: string) =>
    (await stack.api.client.get(`/actions/${id}/history`)).body as { from: string; to: string; attempt: number; note: string }[];
  const completed = (id: string) => waitUntil('the action to complete', async () => (await statusOf(id)).status === 'COMPLETED', 20_000);
  const quickRetry = { maxRetries: 3, backoff: { type: 'fixed', delayMs: 100 } };

  /** SIGTERM, then the exit status and how long it took, or 'still running' after EXIT_BOUND_MS. */
  async function stop(child: AppProcess) {
    const sentAt = Date.now();
    child.kill('SIGTERM');
    const bound = new Promise<'still running'>((resolve) => setTimeout(resolve, EXIT_BOUND_MS, 'still running').unref());
    const exit = await Promise.race([child.exited, bound]);
    return { exit, tookMs: Date.now() - sentAt };
  }

  it('stops a call that outlives SHUTDOWN_TIMEOUT_MS, records it as a failed attempt, and it runs once more with the same key', async () => {
    const stopping = new AppProcess('worker', FAST);
    stack.processes.push(stopping);
    await stopping.ready(WORKER_READY);
    stack.receiver.holdNext(1); // the first call hangs: its 120 s timeout is far away
    const action = (
      await stack.api.client.post('/actions', {
        action: 'HTTP_REQUEST',
        executionTime: Date.now(),
        data: { url: stack.receiver.url('/stopped'), timeoutMs: 120_000 },
        retryPolicy: quickRetry,
      })
    ).body;
    await waitUntil('the call to arrive', () => stack.receiver.callsTo('/stopped').length === 1);

    const { exit, tookMs } = await stop(stopping);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(tookMs).toBeGreaterThanOrEqual(1000);
    const stopped = (await historyOf(action.id)).at(-1)!;
    expect(stopped).toMatchObject({ from: 'IN_PROGRESS', to: 'PENDING', attempt: 1 });
    expect(stopped.note).toMatch(/^stopped by worker shutdown \(still running after SHUTDOWN_TIMEOUT_MS, 1000 ms\)/);
    expect(stopping.logs()).toContain(
      `Stopped ${action.id}:1 attempt 1: still running after SHUTDOWN_TIMEOUT_MS (1000 ms). Each is recorded as a failed attempt and tried again with the same idempotency key or webhook-id`,
    );
    expect(stopping.logs()).not.toContain('Exiting without');

    stack.worker = await startWorker({ env: FAST });
    await completed(action.id);
    expect(stack.receiver.callsTo('/stopped').map((call) => call.headers['idempotency-key'])).toEqual([`${action.id}:1`, `${action.id}:1`]);
    expect((await historyOf(action.id)).map((h) => `${h.from}>${h.to}#${h.attempt}`)).toEqual([
      'null>PENDING#0',
      'PENDING>IN_PROGRESS#1',
      'IN_PROGRESS>PENDING#1',
      'PENDING>IN_PROGRESS#2',
      'IN_PROGRESS>COMPLETED#2',
    ]);
  }, 90_000);

  it('exits without an attempt that ignores its signal; another worker takes it over as interrupted', async () => {
    const stopping = new AppProcess('worker', FAST, { entry: WAITING_WORKER });
    stack.processes.push(stopping);
    await stopping.ready(WORKER_READY);
    const action = (await stack.api.client.post('/actions', { action: 'TEST_WAIT', executionTime: Date.now(), data: { ignoreSignal: true } })).body;
    await waitUntil('the attempt to start', async () => (await statusOf(action.id)).status === 'IN_PROGRESS');

    const { exit } = await stop(stopping);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(stopping.logs()).toContain(`Exiting without ${action.id}:1 attempt 1: told to stop, still running 5000 ms later.`);
    expect((await statusOf(action.id)).status).toBe('IN_PROGRESS');

    stack.worker = await startWorker({ env: FAST, actionTypes: TYPES_WITH_WAIT, fulfillmentModules: [...BUILT_IN_FULFILLMENT_MODULES, WaitModule] });
    await completed(action.id);
    const history = await historyOf(action.id);
    expect(history.map((h) => `${h.from}>${h.to}#${h.attempt}`)).toEqual([
      'null>PENDING#0',
      'PENDING>IN_PROGRESS#1',
      'IN_PROGRESS>IN_PROGRESS#2',
      'IN_PROGRESS>COMPLETED#2',
    ]);
    expect(history[2].note).toMatch(/^attempt 1 was interrupted/);
  }, 90_000);

  it('stops a webhook delivery that outlives SHUTDOWN_TIMEOUT_MS the same way: a failed attempt, sent again with the same webhook-id', async () => {
    const hook = await new HttpReceiver().start();
    try {
      // Each delivery attempt may take a minute: only the shutdown can end the first one within the spec.
      const env = { ...FAST, WEBHOOK_TIMEOUT_MS: '60000', WEBHOOK_BACKOFF_DELAYS_MS: '100' };
      const stopping = new AppProcess('worker', env);
      stack.processes.push(stopping);
      await stopping.ready(WORKER_READY);
      hook.holdNext(1);
      const subscription = await subscribe(stack.api.client, hook.url(), { events: ['action.succeeded'] });
      const action = (
        await stack.api.client.post('/actions', { action: 'HTTP_REQUEST', executionTime: Date.now(), data: { url: stack.receiver.url('/fine') } })
      ).body;
      await waitUntil('the delivery to arrive', () => hook.calls.length === 1);
      const [delivery] = (await stack.api.client.get(`/webhooks/${subscription.id}/deliveries`)).body.items;

      const { exit, tookMs } = await stop(stopping);
      expect(exit).toEqual({ code: 0, signal: null });
      expect(tookMs).toBeLessThan(EXIT_BOUND_MS);
      expect(stopping.logs()).toContain(`Stopped delivery ${delivery.id} attempt 1: still running after SHUTDOWN_TIMEOUT_MS (1000 ms).`);
      const [recorded] = await deliveriesWhen(stack.api.client, subscription.id, ([d]) => d?.attempts === 1);
      expect(recorded.status).toBe('PENDING');

      stack.worker = await startWorker({ env });
      const [delivered] = await deliveriesWhen(stack.api.client, subscription.id, ([d]) => d?.status === 'DELIVERED', 20_000);
      expect(delivered.attempts).toBe(2);
      expect(hook.calls.map((call) => call.headers['webhook-id'])).toEqual([hook.calls[0].headers['webhook-id'], hook.calls[0].headers['webhook-id']]);
      expect(JSON.parse(hook.calls[0].body).data.action.id).toBe(action.id);
    } finally {
      await hook.stop();
    }
  }, 90_000);
});
