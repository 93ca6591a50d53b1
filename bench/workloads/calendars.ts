import { performance } from 'node:perf_hooks';
import { Frequency, Schedule, nextOccurrence } from '@app/domain';
import { waitUntil } from '@app/testing';
import { BENCH_NOOP } from '../apps/noop-action-type';
import { BenchClient } from '../bench-client';
import { startWorkers, Stores } from '../harness';
import { percentile } from '../percentile';
import { LagFigures, lagFigures } from './scheduling';

/** Cost of one next-occurrence computation, in µs. */
export interface OccurrenceCost {
  schedule: string;
  p50Us: number;
  p99Us: number;
}

const SCHEDULES: [string, Schedule][] = [
  ['HOURLY (fixed step)', { frequency: Frequency.Hourly, cron: null, timezone: 'UTC', anchor: new Date('2027-01-01T09:00:00Z') }],
  ['DAILY in Europe/Berlin', { frequency: Frequency.Daily, cron: null, timezone: 'Europe/Berlin', anchor: new Date('2027-01-01T08:00:00Z') }],
  [
    'cron 0 9 * * MON-FRI in Europe/Berlin',
    { frequency: null, cron: '0 9 * * MON-FRI', timezone: 'Europe/Berlin', anchor: new Date('2027-01-01T08:00:00Z') },
  ],
  ['cron */2 * * * * * in UTC', { frequency: null, cron: '*/2 * * * * *', timezone: 'UTC', anchor: new Date('2027-01-01T00:00:00Z') }],
];

/** `calls` successive next-occurrence computations per schedule, each timed on its own. */
export function occurrenceCost(calls: number): OccurrenceCost[] {
  return SCHEDULES.map(([name, schedule]) => {
    const micros: number[] = [];
    let current = schedule.anchor;
    for (let i = 0; i < calls; i += 1) {
      const started = performance.now();
      current = nextOccurrence(schedule, current)!;
      micros.push((performance.now() - started) * 1000);
    }
    micros.sort((a, b) => a - b);
    const round = (n: number) => Math.round(n * 10) / 10;
    return { schedule: name, p50Us: round(percentile(micros, 50)), p99Us: round(percentile(micros, 99)) };
  });
}

/**
 * Firing lag of `count` actions all due in the same second, created as cron actions (a 6-field
 * expression naming that second) and as plain one-off actions, each on a clean slate with the
 * same worker processes: the cost of cron on the hot path, if any.
 */
export async function cronFiring(client: BenchClient, stores: Stores, workers: number, count: number): Promise<{ cron: LagFigures; oneOff: LagFigures }> {
  const run = async (kind: 'cron' | 'oneOff'): Promise<LagFigures> => {
    await stores.reset();
    const running = await startWorkers(workers);
    try {
      const due = new Date(Math.ceil((Date.now() + 4000 + count) / 1000) * 1000);
      const cron = `${due.getUTCSeconds()} ${due.getUTCMinutes()} ${due.getUTCHours()} ${due.getUTCDate()} ${due.getUTCMonth() + 1} *`;
      const item = kind === 'cron' ? { repeat: true, cron, executionRemainder: 1, executionTime: due.getTime() - 1000 } : { executionTime: due.getTime() };
      for (let from = 0; from < count; from += 1000) {
        const items = Array.from({ length: Math.min(1000, count - from) }, () => ({ action: BENCH_NOOP.type, data: {}, ...item }));
        const response = await client.post('/actions/batch', { items });
        if (response.status !== 201) throw new Error(`batch create answered ${response.status}: ${JSON.stringify(response.body)}`);
      }
      const done = async () =>
        (await stores.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM actions WHERE status = 'COMPLETED'`)).rows[0].n >= count;
      await waitUntil(`${count} ${kind} actions to run`, done, 120_000, 200);
      const { rows } = await stores.db.query<{ lag: number }>(
        `SELECT (extract(epoch FROM h.at - a.execution_time) * 1000)::float AS lag
         FROM action_history h JOIN actions a ON a.id = h.action_id WHERE h.to_status = 'IN_PROGRESS'`,
      );
      return lagFigures(rows.map((r) => r.lag));
    } finally {
      await Promise.all(running.map((w) => w.stop()));
    }
  };
  return { oneOff: await run('oneOff'), cron: await run('cron') };
}
