import { BenchClient } from '../bench-client';
import { percentile } from '../percentile';
import { processCpuMs } from '../proc-cpu';

export interface CostlyRequestSizes {
  /** Rounds of one batch, one preview and one listing each. */
  rounds: number;
}

export interface CostlyRequestFigures {
  rounds: number;
  liveAlone: { p99Ms: number; maxMs: number };
  liveUnderLoad: { p99Ms: number; maxMs: number; probes: number };
  /** The most CPU time the API spent on one request of each kind (from /proc, in 10 ms ticks), and its slowest answer. */
  batch: RequestCost;
  preview: RequestCost;
  occurrences: RequestCost;
  /** Batches refused for the tenant's create rate: it sent them as fast as it was let. */
  batchesOverRate: number;
}

interface RequestCost {
  maxCpuMs: number;
  /** The first request of a kind pays for compiling its code, so the worst is apt to be the first: the median beside it. */
  medianCpuMs: number;
  maxMs: number;
}

const BATCH = 1000;
const DAY_MS = 86_400_000;
const COMING_DAYS = 8;
const PROBE_EVERY_MS = 10;
const ALONE_PROBES = 200;

/** A thousand distinct cron expressions, each a second apart somewhere in every minute: the costliest valid batch to judge. */
function denseCrons(round: number): { items: object[] } {
  return {
    items: Array.from({ length: BATCH }, (_, i) => ({
      action: 'HTTP_REQUEST',
      data: { url: 'https://example.com/hook' },
      repeat: true,
      cron: `0,${(i % 59) + 1} ${i % 60} ${(round + Math.floor(i / 60)) % 24} * * *`,
      timezone: 'Europe/Berlin',
    })),
  };
}

/** Every second, skipping a calendar that covers the coming days: listed, it had to pass each of their seconds. */
const EVERY_SECOND_PAST_CALENDAR = {
  action: 'HTTP_REQUEST',
  data: { url: 'https://example.com/hook' },
  repeat: true,
  cron: '* * * * * *',
  timezone: 'Europe/Berlin',
  calendar: 'coming-days',
};

/** The wall time and the API's CPU time of one request; the status must be one of `expected`. */
async function costOf(
  apiPid: number,
  call: () => Promise<{ status: number }>,
  expected: number[],
): Promise<{ ms: number; cpuMs: number; status: number }> {
  const cpuBefore = processCpuMs([apiPid]);
  const started = performance.now();
  const { status } = await call();
  if (!expected.includes(status)) throw new Error(`expected ${expected.join(' or ')}, got ${status}`);
  return { ms: performance.now() - started, cpuMs: processCpuMs([apiPid]) - cpuBefore, status };
}

/** `/health/live` answered, one probe every few ms until `stop` (told how many were made) says so: each one's latency. */
async function probeUntil(port: number, stop: (probes: number) => boolean): Promise<number[]> {
  const latencies: number[] = [];
  while (!stop(latencies.length)) {
    const started = performance.now();
    const answer = await fetch(`http://127.0.0.1:${port}/health/live`);
    await answer.arrayBuffer();
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
  }
  return latencies.sort((a, b) => a - b);
}

const round = (ms: number) => Math.round(ms * 10) / 10;
const probeFigures = (latencies: number[]) => ({ p99Ms: round(percentile(latencies, 99)), maxMs: round(latencies[latencies.length - 1]) });

/**
 * One tenant sends the costliest requests it can, one after another: batches of a thousand
 * distinct dense cron expressions (as fast as its create rate lets it), previews and listings of
 * a per-second schedule against a calendar covering the coming days. Meanwhile `/health/live` is
 * probed; each request's CPU time in the API process is read from /proc.
 */
export async function costlyRequests(client: BenchClient, port: number, apiPid: number, sizes: CostlyRequestSizes): Promise<CostlyRequestFigures> {
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  const dates = Array.from({ length: COMING_DAYS }, (_, day) => new Date(today + day * DAY_MS).toISOString().slice(0, 10));
  if ((await client.put('/calendars/coming-days', { dates })).status !== 200) throw new Error('could not store the calendar');
  const listed = await client.post<{ id: string }>('/actions', EVERY_SECOND_PAST_CALENDAR);
  if (listed.status !== 201) throw new Error(`could not create the listed action: ${listed.status}`);

  const alone = await probeUntil(port, (probes) => probes >= ALONE_PROBES);
  let done = false;
  const underLoad = probeUntil(port, () => done);
  const costs = {
    batch: [] as { ms: number; cpuMs: number }[],
    preview: [] as { ms: number; cpuMs: number }[],
    occurrences: [] as { ms: number; cpuMs: number }[],
  };
  let batchesOverRate = 0;
  try {
    for (let i = 0; i < sizes.rounds; i += 1) {
      const batch = await costOf(apiPid, () => client.post('/actions/batch', denseCrons(i)), [201, 429]);
      if (batch.status === 429) batchesOverRate += 1;
      costs.batch.push(batch);
      costs.preview.push(await costOf(apiPid, () => client.post('/actions/preview?count=100', EVERY_SECOND_PAST_CALENDAR), [200]));
      costs.occurrences.push(await costOf(apiPid, () => client.get(`/actions/${listed.body.id}/occurrences?count=100`), [200]));
    }
  } finally {
    done = true;
  }
  const live = await underLoad;
  const worst = (of: { ms: number; cpuMs: number }[]): RequestCost => ({
    maxCpuMs: Math.max(...of.map((cost) => cost.cpuMs)),
    medianCpuMs: percentile(
      of.map((cost) => cost.cpuMs).sort((a, b) => a - b),
      50,
    ),
    maxMs: round(Math.max(...of.map((cost) => cost.ms))),
  });
  return {
    rounds: sizes.rounds,
    liveAlone: probeFigures(alone),
    liveUnderLoad: { ...probeFigures(live), probes: live.length },
    batch: worst(costs.batch),
    preview: worst(costs.preview),
    occurrences: worst(costs.occurrences),
    batchesOverRate,
  };
}
