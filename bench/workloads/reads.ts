import { BENCH_NOOP } from '../apps/noop-action-type';
import { BenchClient } from '../bench-client';
import { Stores } from '../harness';
import { percentile } from '../percentile';

export interface ReadSizes {
  /** Actions in the table while stats are read. */
  actions: number;
  /** History entries of the one action whose first page is read. */
  historyEntries: number;
  /** Measured requests per figure, one at a time (latency, not throughput). */
  requests: number;
}

export interface LatencyFigures {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface ReadFigures {
  actions: number;
  historyEntries: number;
  fillSeconds: number;
  /** GET /actions/stats with the counts folded (as the worker keeps them). */
  stats: LatencyFigures;
  /** GET /actions/stats with `pendingDeltas` deltas not yet folded (a busy interval between compactions). */
  statsUnfolded: LatencyFigures & { pendingDeltas: number };
  /** GET /actions/:id/history, first page (1000 entries). */
  historyFirstPage: LatencyFigures;
}

const TYPES = ['HTTP_REQUEST', 'SEND_NOTIFICATION', BENCH_NOOP.type];
const STATUSES = ['PENDING', 'IN_PROGRESS', 'COMPLETED', 'FAILED', 'NO_ACTION'];
/** Below the API's compact-on-read threshold, so every measured read sums them all. */
const UNFOLDED_DELTAS = 4_000;
const WARM_UP_REQUESTS = 50;

export async function latencies(requests: number, send: () => Promise<{ status: number }>): Promise<LatencyFigures> {
  const times: number[] = [];
  for (let i = 0; i < WARM_UP_REQUESTS + requests; i += 1) {
    const t0 = performance.now();
    const response = await send();
    if (response.status !== 200) throw new Error(`read answered ${response.status}`);
    if (i >= WARM_UP_REQUESTS) times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return { p50Ms: round(percentile(times, 50)), p99Ms: round(percentile(times, 99)), maxMs: round(times[times.length - 1]) };
}

/** `count` actions spread over three types and the five statuses, far in the future so nothing runs, written by SQL. */
export async function fillActions(stores: Stores, count: number): Promise<void> {
  await stores.db.query(
    `INSERT INTO actions (id, tenant_id, action, status, execution_time, next_attempt_at, schedule_anchor, data)
     SELECT gen_random_uuid(), 'default', ($2::text[])[1 + i % 3], ($3::text[])[1 + i % 5], t, t, t, '{}'::jsonb
     FROM generate_series(1, $1::int) i, LATERAL (SELECT now() + interval '30 days' + i * interval '1 second' AS t) due`,
    [count, TYPES, STATUSES],
  );
}

/**
 * Reads that must stay bounded however large the tables grow: stats over `actions` rows and the
 * first history page of an action with `historyEntries` entries. The rows are written by SQL in a
 * few statements (an API would take minutes for a million), far in the future so nothing runs.
 */
export async function boundedReads(client: BenchClient, stores: Stores, sizes: ReadSizes): Promise<ReadFigures> {
  await stores.reset();
  const filling = performance.now();
  await fillActions(stores, sizes.actions);
  const created = await client.post<{ id: string }>('/actions', { action: BENCH_NOOP.type, executionTime: Date.now() + 30 * 86_400_000, data: {} });
  await stores.db.query(
    `INSERT INTO action_history (action_id, occurrence, from_status, to_status, attempt, note, at, event)
     SELECT $1, 1, 'PENDING', 'PENDING', 0, 'entry ' || i, now(), 'patched' FROM generate_series(1, $2::int) i`,
    [created.body.id, sizes.historyEntries - 1],
  );
  await stores.db.query(`ANALYZE actions, action_history, action_counts`);
  const fillSeconds = Math.round((performance.now() - filling) / 100) / 10;

  const { body: counted } = await client.get<{ total: number }>('/actions/stats');
  if (counted.total !== sizes.actions + 1) throw new Error(`stats counted ${counted.total} actions, not ${sizes.actions + 1}`);
  const stats = await latencies(sizes.requests, () => client.get('/actions/stats'));
  await stores.db.query(
    `INSERT INTO action_counts (tenant_id, action, status, delta)
     SELECT 'default', $2, 'PENDING', CASE WHEN i % 2 = 0 THEN 1 ELSE -1 END FROM generate_series(1, $1::int) i`,
    [UNFOLDED_DELTAS, BENCH_NOOP.type],
  );
  const statsUnfolded = { ...(await latencies(sizes.requests, () => client.get('/actions/stats'))), pendingDeltas: UNFOLDED_DELTAS };
  const historyFirstPage = await latencies(sizes.requests, () => client.get(`/actions/${created.body.id}/history`));
  return { actions: sizes.actions, historyEntries: sizes.historyEntries, fillSeconds, stats, statsUnfolded, historyFirstPage };
}
