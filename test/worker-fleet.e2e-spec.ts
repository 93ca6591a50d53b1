import { join } from 'node:path';
import { waitUntil } from '@app/testing';
import { AppProcess, WORKER_READY } from './support/app-process';
import { TYPES_WITH_ECHO } from './support/echo-action-type';
import { useProcessStack } from './support/process-stack';

/** Long enough for a worker process to start again within it on a loaded machine, short enough to wait for once. */
const GRACE_MS = 40_000;
const ENV = { PROMOTE_INTERVAL_MS: '200', OVERDUE_GRACE_MS: '1000', UNKNOWN_TYPE_GRACE_MS: String(GRACE_MS) };
/** One TEST_ECHO job every 5 s: ten due at once wait up to 45 s, past the grace. */
const SLOW_ECHO = { ACTION_RATE_LIMITS: 'TEST_ECHO=1/5000' };
const ECHO_WORKER = join(__dirname, 'support', 'echo-action-type.ts');

type History = { from: string; to: string; at: string; note: string }[];

/**
 * A rolling deploy of a new action type: a stock worker (built-in types only) and a custom one that
 * also knows TEST_ECHO, as processes of their own on one Postgres and Redis. Whichever of them leads
 * the promoter, an action of the new type ends NO_ACTION only once it has been due for the grace
 * with no live worker knowing its type, and never while paused.
 */
describe('Workers with different type registries', () => {
  const stack = useProcessStack(ENV, TYPES_WITH_ECHO);

  const statusOf = async (id: string): Promise<string> => (await stack.api.client.get(`/actions/${id}`)).body.status;
  const historyOf = async (id: string): Promise<History> => (await stack.api.client.get(`/actions/${id}/history`)).body;
  const echoes = async (count: number, inMs = 500): Promise<string[]> => {
    const items = Array.from({ length: count }, (_, i) => ({ action: 'TEST_ECHO', executionTime: Date.now() + inMs, data: { message: `m${i}` } }));
    const created = await stack.api.client.post('/actions/batch', { items });
    expect(created.status).toBe(201);
    return created.body.items.map((item: { id: string }) => item.id);
  };
  const allReach = (ids: string[], status: string, timeoutMs: number) =>
    waitUntil(`${ids.length} action(s) ${status}`, async () => (await Promise.all(ids.map(statusOf))).every((s) => s === status), timeoutMs, 200);
  const start = (env: Record<string, string>, entry?: string) => {
    const worker = new AppProcess('worker', env, { entry });
    stack.processes.push(worker);
    return worker.ready(WORKER_READY, 60_000);
  };
  const stop = async (worker: AppProcess) => {
    worker.kill('SIGTERM');
    expect((await worker.exited).code).toBe(0);
  };

  it('ends none while a live worker knows the type or within the grace, and one once it was due for the grace with none knowing it', async () => {
    await start(ENV);
    const custom = await start({ ...ENV, ...SLOW_ECHO }, ECHO_WORKER);

    // A paused action of the new type, held from its first occurrence, then made due (as by a row edit) while held.
    const [paused] = await echoes(1, 3_600_000);
    expect((await stack.api.client.post(`/actions/${paused}/pause`, {})).status).toBe(200);
    await stack.api.db.query(`UPDATE actions SET next_attempt_at = now() WHERE id = $1`, [paused]);

    // Ten due at one instant wait behind the rate limit, the last ones longer than the grace: the custom worker knows them all along.
    const limited = await echoes(10);
    await allReach(limited, 'COMPLETED', 90_000);
    const starts = await Promise.all(
      limited.map(async (id) => {
        const history = await historyOf(id);
        expect(history.map((h) => h.to)).toEqual(['PENDING', 'IN_PROGRESS', 'COMPLETED']);
        return Date.parse(history[1].at);
      }),
    );
    expect(Math.max(...starts) - Math.min(...starts)).toBeGreaterThan(GRACE_MS);

    // Restarted: while no worker knows the type, actions due now wait within the grace, and run once it is back.
    await stop(custom);
    const duringRestart = await echoes(3);
    const restarted = await start(ENV, ECHO_WORKER);
    await allReach(duringRestart, 'COMPLETED', 60_000);

    // Gone for good: an action due now ends NO_ACTION once the grace has passed since the last worker that knew its type stopped.
    const stoppedAt = Date.now();
    await stop(restarted);
    const [orphan] = await echoes(1);
    await allReach([orphan], 'NO_ACTION', GRACE_MS + 30_000);
    const ended = (await historyOf(orphan)).at(-1)!;
    expect(ended).toMatchObject({ from: 'PENDING', to: 'NO_ACTION', note: 'No live worker knew action type TEST_ECHO while it was due' });
    expect(Date.parse(ended.at) - stoppedAt).toBeGreaterThanOrEqual(GRACE_MS);

    // The paused one was due all along, of a type no live worker knows now: it is still held.
    expect(await statusOf(paused)).toBe('PENDING');
    expect((await historyOf(paused)).map((h) => h.to)).not.toContain('NO_ACTION');
  }, 400_000);
});
