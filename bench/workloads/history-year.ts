import { DataSource } from 'typeorm';
import { dataSourceOptions, PartitionsRepository } from '@app/database';
import { envSchema } from '../../libs/config/src/env.schema';
import { BENCH_NOOP } from '../apps/noop-action-type';
import { BenchClient } from '../bench-client';
import { BENCH_ENV } from '../bench-env';
import { Stores } from '../harness';
import { fillActions, latencies, LatencyFigures } from './reads';

export interface YearSizes {
  /** Actions in the table while stats are read. */
  actions: number;
  /** `TEN_MINS` repeating actions, each with a year of history. */
  repeating: number;
  /** Measured requests per figure, one at a time. */
  requests: number;
}

interface Reads {
  /** Partitions of the history, the DEFAULT one included. */
  historyPartitions: number;
  historyEntries: number;
  stats: LatencyFigures;
  /** GET /actions/:id/history of one repeating action, first page (1000 entries). */
  historyFirstPage: LatencyFigures;
}

export interface YearFigures {
  actions: number;
  repeating: number;
  fillSeconds: number;
  retentionDays: number;
  /** With the whole year kept, as with RETENTION_DAYS=365. */
  yearKept: Reads;
  /** What one retention upkeep at the default RETENTION_DAYS dropped, and how long it took. */
  upkeep: { droppedPartitions: number; ms: number };
  /** After that upkeep: the default retention's steady state. */
  afterRetention: Reads;
}

const TEN_MINUTES_PER_YEAR = 365 * 144;
const WEEKS_PER_YEAR = 53;

/**
 * A year of a `TEN_MINS` repeating load: `repeating` actions, each with a claim and an outcome
 * entry every ten minutes over the last 365 days in the weekly partitions, and one of them with an
 * event and a delivery per run in the outbox; beside `actions` other actions for stats. Times the
 * bounded reads with the year kept, then after the retention upkeep drops what the default
 * RETENTION_DAYS no longer keeps. The rows are written by SQL, as in `boundedReads`.
 */
export async function yearOfHistory(client: BenchClient, stores: Stores, sizes: YearSizes): Promise<YearFigures> {
  await stores.reset();
  const filling = performance.now();
  await stores.db.query(`SELECT punctual_create_week_partitions((now() AT TIME ZONE 'UTC')::date - 7 * week) FROM generate_series(0, $1::int) week`, [
    WEEKS_PER_YEAR,
  ]);
  await fillActions(stores, sizes.actions);
  const ids: string[] = [];
  for (let i = 0; i < sizes.repeating; i += 1) {
    const body = {
      action: BENCH_NOOP.type,
      executionTime: Date.now() + 30 * 86_400_000,
      repeat: true,
      frequency: 'TEN_MINS',
      executionRemainder: 2_000_000_000,
      data: {},
    };
    const created = await client.post<{ id: string }>('/actions', body);
    if (created.status !== 201) throw new Error(`creating a repeating action answered ${created.status}: ${JSON.stringify(created.body)}`);
    ids.push(created.body.id);
  }
  await stores.db.query(
    `INSERT INTO action_history (action_id, occurrence, from_status, to_status, attempt, note, at, due_at, event, outcome)
     SELECT a.id, run, e.from_status, e.to_status, 1, e.note, due + e.after, CASE WHEN e.to_status = 'IN_PROGRESS' THEN due END, e.event, e.outcome
     FROM unnest($1::uuid[]) a(id), generate_series(1, $2::int) run,
       LATERAL (SELECT now() - interval '365 days' + run * interval '10 minutes' AS due) d,
       (VALUES ('PENDING', 'IN_PROGRESS', NULL, interval '20 milliseconds', 'claimed', NULL),
               ('IN_PROGRESS', 'PENDING', 'HTTP 200', interval '150 milliseconds', 'succeeded', 'succeeded'))
         e(from_status, to_status, note, after, event, outcome)
     ORDER BY a.id, run, e.after`,
    [ids, TEN_MINUTES_PER_YEAR],
  );
  // One callback delivery per run of the first action, delivered.
  await stores.db.query(
    `INSERT INTO webhook_events (tenant_id, type, action_id, action_type, occurrence, attempt, callback_url, created_at)
     SELECT 'default', 'action.attempt_succeeded', $1, $2, run, 1, 'http://127.0.0.1:9/events', now() - interval '365 days' + run * interval '10 minutes'
     FROM generate_series(1, $3::int) run`,
    [ids[0], BENCH_NOOP.type, TEN_MINUTES_PER_YEAR],
  );
  await stores.db.query(`UPDATE webhook_deliveries SET status = 'DELIVERED', attempts = 1, delivered_at = created_at`);
  const fillSeconds = Math.round((performance.now() - filling) / 100) / 10;

  const yearKept = await reads(client, stores, ids[0], sizes.requests);
  const retentionDays = envSchema.shape.RETENTION_DAYS.parse(undefined);
  const dataSource = await new DataSource(dataSourceOptions(BENCH_ENV.DATABASE_URL)).initialize();
  try {
    const t0 = performance.now();
    const { dropped } = await new PartitionsRepository(dataSource).upkeep(retentionDays);
    const upkeep = { droppedPartitions: dropped.length, ms: Math.round(performance.now() - t0) };
    const afterRetention = await reads(client, stores, ids[0], sizes.requests);
    return { actions: sizes.actions, repeating: sizes.repeating, fillSeconds, retentionDays, yearKept, upkeep, afterRetention };
  } finally {
    await dataSource.destroy();
  }
}

async function reads(client: BenchClient, stores: Stores, historyOf: string, requests: number): Promise<Reads> {
  await stores.db.query(`ANALYZE actions, action_history, action_counts, webhook_events, webhook_deliveries`);
  const { rows } = await stores.db.query<{ partitions: number; entries: number }>(
    `SELECT (SELECT count(*) FROM pg_inherits WHERE inhparent = 'action_history'::regclass)::int AS partitions,
            (SELECT count(*) FROM action_history)::int AS entries`,
  );
  return {
    historyPartitions: rows[0].partitions,
    historyEntries: rows[0].entries,
    stats: await latencies(requests, () => client.get('/actions/stats')),
    historyFirstPage: await latencies(requests, () => client.get(`/actions/${historyOf}/history`)),
  };
}
