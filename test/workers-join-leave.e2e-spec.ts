import { waitUntil } from '@app/testing';
import { useProcessStack } from './support/process-stack';
import { AppProcess, WORKER_READY } from './support/app-process';

/** Short leases and sweeps so a dead worker's attempts are taken over within seconds. */
const FAST = { CLAIM_LEASE_MS: '1500', PROMOTE_INTERVAL_MS: '200', OVERDUE_GRACE_MS: '1000' };
const BACKLOG = 3000;
/** Due times spread over this long, so the backlog is still draining while workers come and go. */
const SPREAD_MS = 40_000;
/** Calls the first worker leaves unanswered: all of its slots, so it is surely running them when it is killed. */
const HELD = 5;
/** A worker process boots from the TypeScript sources, slowly on a loaded machine. */
const BOOT_MS = 90_000;

describe('Workers joining and leaving while a backlog drains', () => {
  const stack = useProcessStack(FAST);

  const spawnWorker = (concurrency: number) => {
    const child = new AppProcess('worker', { ...FAST, WORKER_CONCURRENCY: String(concurrency) });
    stack.processes.push(child);
    return child;
  };
  const calls = () => stack.receiver.callsTo('/drain');

  it('every occurrence runs once and never early; a killed worker’s running attempts are taken over with their key', async () => {
    const first = await spawnWorker(HELD).ready(WORKER_READY, BOOT_MS);
    stack.receiver.delayNext(Number.MAX_SAFE_INTEGER, 100); // every call takes a while, so each worker always has some in flight
    const start = Date.now();
    const due = new Map<string, number>();
    for (let batch = 0; batch < BACKLOG / 1000; batch += 1) {
      const items = Array.from({ length: 1000 }, (_, i) => ({
        action: 'HTTP_REQUEST',
        executionTime: start + 1000 + Math.floor(((batch * 1000 + i) / BACKLOG) * SPREAD_MS),
        data: { url: stack.receiver.url('/drain'), timeoutMs: 120_000 },
      }));
      const created = await stack.api.client.post('/actions/batch', { items });
      expect(created.status).toBe(201);
      for (const action of created.body.items) due.set(action.id, new Date(action.executionTime).getTime());
    }

    // The first worker is the only one: the next calls to arrive are its own, and it never gets their answers.
    await waitUntil('the first worker to drain', () => calls().length >= 20, 30_000);
    const heldFrom = calls().length;
    stack.receiver.holdNext(HELD);
    await waitUntil('the first worker to hold every slot', () => calls().length >= heldFrom + HELD, 30_000);
    const held = calls()
      .slice(heldFrom, heldFrom + HELD)
      .map((call) => String(call.headers['idempotency-key']));

    // Two workers join while the backlog waits; the first is killed with its attempts running, and one of the two leaves gracefully.
    const [leaving] = await Promise.all([spawnWorker(20).ready(WORKER_READY, BOOT_MS), spawnWorker(20).ready(WORKER_READY, BOOT_MS)]);
    const drained = calls().length;
    await waitUntil('the joined workers to drain', () => calls().length >= drained + 100, 30_000);
    first.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    leaving.kill('SIGTERM');
    const joining = spawnWorker(20).ready(WORKER_READY, BOOT_MS);
    expect(await leaving.exited).toEqual({ code: 0, signal: null });
    await joining;

    const ids = [...due.keys()];
    await waitUntil(
      'every action to complete',
      async () => {
        const [row] = await stack.api.db.query(`SELECT count(*)::int AS n FROM actions WHERE id = ANY($1) AND status = 'COMPLETED'`, [ids]);
        return row.n === ids.length;
      },
      BOOT_MS + SPREAD_MS,
      250,
    );

    // Postgres: one success per action; the attempts each occurrence had claimed, which were interrupted, and which
    // failed and were retried (on a loaded machine a call can fail, its claim's renewal late, and run again by policy).
    const history: { id: string; successes: number; claims: number; interrupted: number; failed: number }[] = await stack.api.db.query(
      `SELECT action_id AS id,
              count(*) FILTER (WHERE from_status = 'IN_PROGRESS' AND to_status = 'COMPLETED')::int AS successes,
              count(*) FILTER (WHERE to_status = 'IN_PROGRESS')::int AS claims,
              count(*) FILTER (WHERE note LIKE '%was interrupted%')::int AS interrupted,
              count(*) FILTER (WHERE from_status = 'IN_PROGRESS' AND to_status = 'PENDING' AND coalesce(note, '') NOT LIKE '%was interrupted%')::int AS failed
       FROM action_history WHERE action_id = ANY($1) GROUP BY action_id`,
      [ids],
    );
    expect(history).toHaveLength(ids.length);
    expect(history.filter((h) => h.successes !== 1)).toEqual([]);

    // The receiver: every occurrence called, never before it was due, never more often than it was claimed, and again
    // only after an attempt was interrupted or failed.
    const byKey = new Map<string, number[]>();
    for (const call of calls()) {
      const key = String(call.headers['idempotency-key']);
      byKey.set(key, [...(byKey.get(key) ?? []), call.at]);
    }
    expect([...byKey.keys()].filter((key) => !due.has(key.replace(/:1$/, '')))).toEqual([]);
    expect(ids.filter((id) => !byKey.has(`${id}:1`))).toEqual([]);
    expect(ids.filter((id) => byKey.get(`${id}:1`)!.some((at) => at < due.get(id)!))).toEqual([]);
    expect(history.filter((h) => byKey.get(`${h.id}:1`)!.length > h.claims)).toEqual([]);
    expect(history.filter((h) => byKey.get(`${h.id}:1`)!.length > 1 + h.interrupted + h.failed)).toEqual([]);

    // The killed worker's held attempts: each interrupted, then run again with the same key.
    const takenOver = history.filter((h) => held.includes(`${h.id}:1`));
    expect(takenOver.map((h) => [h.interrupted, byKey.get(`${h.id}:1`)!.length])).toEqual(held.map(() => [1, 2]));
  }, 300_000);
});
