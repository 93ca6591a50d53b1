/**
 * `npm run bench [-- --quick] [--only <workloads>]`: Punctual's figures beside raw BullMQ's,
 * pg-boss's, Graphile Worker's and BullMQ on Postgres's, measured in one run on this machine's Postgres and Redis.
 * Prints one JSON line per measurement and a table of figures and targets; writes
 * bench/results/latest.json. Asserts nothing.
 * `--against <git-ref>` measures this tree beside that commit instead (compare/against.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RPC_PATTERNS } from '@punctual/contract';
import { PunctualClient } from '@punctual/client';
import { NOOP_PATTERN, startNoopSibling } from './apps/noop-sibling';
import { BenchClient } from './bench-client';
import { BENCH_ENV } from './bench-env';
import { compareAgainst } from './compare/against';
import { BENCH_KEY, BenchProcess, freePort, startApi, Stores } from './harness';
import { MACHINE } from './machine';
import { commandLineOptions, Workload } from './options';
import { benchSizes } from './sizes';
import { cronFiring, occurrenceCost, OccurrenceCost } from './workloads/calendars';
import { costlyRequests, CostlyRequestFigures } from './workloads/costly-requests';
import { fairness, FairnessFigures } from './workloads/fairness';
import { BULLMQ_INGEST, bullmqIngest, ingest, IngestFigures, rpcIngest } from './workloads/ingest';
import { boundedReads, ReadFigures } from './workloads/reads';
import { YearFigures, yearOfHistory } from './workloads/history-year';
import { calendarChange, CalendarChangeFigures } from './workloads/holiday-calendars';
import { ObservabilityFigures, observabilityCost } from './workloads/observability';
import { CpuPerAction } from './proc-cpu';
import { CpuPerJob, firingPrecision, LagFigures, throughput } from './workloads/scheduling';
import { bullmqOnPostgres, createNoopActions, graphileWorker, pgBoss, punctual, punctualServerProcesses, rawBullmq, System } from './workloads/systems';
import { UnsignedFigures, unsignedCost } from './workloads/unsigned';
import { WebhookFigures, webhookThroughput } from './workloads/webhooks';

const options = commandLineOptions();
const { quick } = options;
const SIZES = benchSizes(quick);
const FAST_HZ = 100;

const results = {
  machine: MACHINE,
  quick,
  workloads: options.only,
  measurements: [] as Record<string, unknown>[],
};

function report(workload: string, figures: object): void {
  const line = { workload, ...figures };
  results.measurements.push(line);
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

function find<T>(workload: string, where: Record<string, unknown> = {}): T | undefined {
  return results.measurements.find((m) => m.workload === workload && Object.entries(where).every(([k, v]) => m[k] === v)) as T | undefined;
}

async function firing(systems: System[], stores: Stores): Promise<void> {
  const originalHz = Number((await stores.redis.config('GET', 'hz'))[1]);
  try {
    // A quick run keeps Redis's own setting; a full one also measures at hz 100.
    for (const hz of [...new Set(quick ? [originalHz] : [originalHz, FAST_HZ])]) {
      await stores.redis.config('SET', 'hz', String(hz));
      // The systems without Redis are measured once.
      for (const system of systems.filter((s) => s.usesRedis || hz === originalHz)) {
        for (const { perSec, count } of SIZES.firing) {
          const figures = await firingPrecision(system, SIZES.firingWorkers, count, (1000 * count) / perSec);
          const redisHz = system.usesRedis ? hz : null;
          report('firing', { system: system.name, duePerSec: perSec, redisHz, workers: SIZES.firingWorkers, ...figures });
        }
      }
    }
  } finally {
    await stores.redis.config('SET', 'hz', String(originalHz));
  }
}

/** MESSAGE actions answered by a no-op sibling on Redis, beside the no-op type, one worker each. */
async function messageThroughput(client: BenchClient, stores: Stores, api: BenchProcess): Promise<void> {
  const sibling = await startNoopSibling(BENCH_ENV.REDIS_URL);
  try {
    const messages = punctual(client, stores, {
      name: 'Punctual MESSAGE',
      actionAt: (due) => ({ action: 'MESSAGE', executionTime: due, data: { pattern: NOOP_PATTERN } }),
      apiPid: api.pid,
    });
    report('throughput', { system: messages.name, workers: 1, jobs: SIZES.burst, ...(await throughput(messages, 1, SIZES.burst)) });
  } finally {
    await sibling.close();
  }
}

/** RPC requests reach every API subscribed on this Redis server, whatever its database: rpcIngest measures beside no other. */
async function assertOnlyRpcServer(stores: Stores): Promise<void> {
  const [, subscribers] = (await stores.redis.pubsub('NUMSUB', RPC_PATTERNS.create)) as [string, number];
  if (subscribers > 1) throw new Error(`rpcIngest: ${subscribers - 1} other API(s) serve RPC on this Redis server and would answer its requests too`);
}

async function backlogMemory(client: BenchClient, stores: Stores): Promise<void> {
  await stores.reset();
  const farFuture = Date.now() + 30 * 86_400_000;
  let inserted = 0;
  const points: { actions: number; redisUsedMemory: number; actionsTableBytes: number }[] = [];
  for (const target of SIZES.backlog) {
    await createNoopActions(client, Array<number>(target - inserted).fill(farFuture));
    inserted = target;
    const redisUsedMemory = Number(/used_memory:(\d+)/.exec(await stores.redis.info('memory'))![1]);
    const { rows } = await stores.db.query<{ bytes: string }>(`SELECT pg_total_relation_size('actions')::bigint AS bytes`);
    points.push({ actions: target, redisUsedMemory, actionsTableBytes: Number(rows[0].bytes) });
  }
  report('backlogMemory', { points });
}

type Row = [string, string, string];

/** What every workload gets: the running API, its port and client, the stores and the systems under test. */
interface Context {
  api: BenchProcess;
  port: number;
  client: BenchClient;
  stores: Stores;
  systems: System[];
  rpc: PunctualClient;
}

const RUN: Record<Workload, (context: Context) => Promise<void>> = {
  ingest: async ({ api, client, stores }) => {
    const processes = async () => ({ api: [api.pid], ...(await punctualServerProcesses(stores)) });
    report('ingest', { system: 'Punctual', ...(await ingest(client, SIZES.singles, SIZES.batches, processes)) });
    report('ingest', { system: BULLMQ_INGEST, ...(await bullmqIngest(stores, SIZES.singles, SIZES.batches)) });
  },
  rpcIngest: async ({ rpc, stores }) => {
    await assertOnlyRpcServer(stores);
    report('rpcIngest', await rpcIngest(rpc, SIZES.singles));
  },
  unsignedCost: async ({ api, port }) => report('unsignedCost', await unsignedCost(port, api.pid, SIZES.unsigned)),
  firing: ({ systems, stores }) => firing(systems, stores),
  throughput: async ({ api, systems, client, stores }) => {
    for (const system of systems) {
      for (const workers of SIZES.workers) {
        report('throughput', {
          system: system.name,
          workers,
          jobs: SIZES.burst,
          ...(await throughput(system, workers, SIZES.burst)),
          settings: system.settings,
        });
      }
    }
    await messageThroughput(client, stores, api);
  },
  fairness: async ({ client, port, stores }) => report('fairness', await fairness(client, port, stores, SIZES.fairness)),
  webhooks: async ({ client, stores }) =>
    report('webhooks', { workers: 1, jobs: SIZES.burst, ...(await webhookThroughput(client, stores, 1, SIZES.burst)) }),
  backlogMemory: ({ client, stores }) => backlogMemory(client, stores),
  boundedReads: async ({ client, stores }) => report('boundedReads', await boundedReads(client, stores, SIZES.reads)),
  yearOfHistory: async ({ client, stores }) => report('yearOfHistory', await yearOfHistory(client, stores, SIZES.year)),
  occurrenceCost: async () => report('occurrenceCost', { schedules: occurrenceCost(SIZES.calendars.calls) }),
  cronFiring: async ({ client, stores }) =>
    report('cronFiring', {
      actions: SIZES.calendars.cronActions,
      ...(await cronFiring(client, stores, SIZES.firingWorkers, SIZES.calendars.cronActions)),
    }),
  calendarChange: async ({ client, stores }) => report('calendarChange', await calendarChange(client, stores, SIZES.calendarChange)),
  observability: async ({ stores }) => {
    for (const figures of await observabilityCost(stores, await freePort(), SIZES.observability)) report('observability', figures);
  },
  costlyRequests: async ({ api, port, client }) => report('costlyRequests', await costlyRequests(client, port, api.pid, SIZES.costly)),
};

async function main(): Promise<void> {
  if (options.against !== undefined) return compareAgainst(options.against, options);
  const stores = await Stores.open();
  await stores.reset();
  const port = await freePort();
  // Pub/sub channels span every database of a Redis server: an API serving RPC would also answer other runs' and test suites' requests.
  // Named, not left unset: the benchmark's two tenants would keep the API from serving its own Redis by default.
  const { api, client } = await startApi(port, { RPC_TRANSPORT_URL: options.only.includes('rpcIngest') ? BENCH_ENV.REDIS_URL : 'off' });
  const systems = [punctual(client, stores, { apiPid: api.pid }), rawBullmq(stores), pgBoss(stores), graphileWorker(stores), bullmqOnPostgres(stores)];
  const rpc = PunctualClient.overRpc({ transport: BENCH_ENV.REDIS_URL, ...BENCH_KEY });
  try {
    for (const workload of options.only) await RUN[workload]({ api, port, client, stores, systems, rpc });
  } finally {
    await rpc.close();
    client.close();
    await api.stop();
    await stores.close();
  }
  printTable();
  mkdirSync(join(__dirname, 'results'), { recursive: true });
  writeFileSync(join(__dirname, 'results', 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
}

const tp = (system: string, workers: number) =>
  find<{ jobsPerSec: number; machineCpuPercent: number; cpuMsPerJob: CpuPerJob }>('throughput', { system, workers })!;
const lagText = (figures: LagFigures | undefined) => (figures ? `${figures.p99Ms} ms, ${figures.early} early` : 'n/a');
const CPU_GROUPS = { workers: 'workers', api: 'API', postgres: 'Postgres', redis: 'Redis' } as const;

/** CPU time per action and the share of each kind of process that had any. */
function cpuText(cpu: Partial<CpuPerAction<keyof typeof CPU_GROUPS>> | undefined): string {
  if (cpu?.total == null) return 'CPU n/a (a store server out of sight of /proc)';
  const shares = (Object.keys(CPU_GROUPS) as (keyof typeof CPU_GROUPS)[])
    .filter((group) => cpu[group])
    .map((group) => `${CPU_GROUPS[group]} ${cpu[group]!.toFixed(2)}`);
  return `${cpu.total.toFixed(2)} CPU-ms per action (${shares.join(', ')})`;
}

/** The table's rows of each workload, for those that ran. */
const ROWS: Record<Workload, () => Row[]> = {
  ingest: () => {
    const punctual = find<IngestFigures>('ingest', { system: 'Punctual' })!;
    const bullmq = find<IngestFigures>('ingest', { system: BULLMQ_INGEST })!;
    const beside = (route: 'single' | 'batch', call: string) => {
      const [rate, cpu] = [`${route}ActionsPerSec` as const, `${route}CpuMsPerAction` as const];
      return `Punctual ${punctual[rate]}/s, ${cpuText(punctual[cpu])}; BullMQ ${call} through one process ${bullmq[rate]}/s, ${cpuText(bullmq[cpu])} → ${(punctual[rate] / bullmq[rate]).toFixed(2)} ×`;
    };
    return [
      ['ingest through POST /actions/batch of 500, 4 in flight', beside('batch', 'addBulk'), '≥ 0.7 × BullMQ addBulk through one process'],
      ['ingest through single POST /actions, concurrency 64', beside('single', 'add'), '≥ 0.5 × BullMQ add through one process'],
    ];
  },
  rpcIngest: () => {
    const { rpcActionsPerSec } = find<{ rpcActionsPerSec: number }>('rpcIngest')!;
    const http = find<{ singleActionsPerSec: number }>('ingest', { system: 'Punctual' });
    const ratio = http ? ` → ${(rpcActionsPerSec / http.singleActionsPerSec).toFixed(2)} × HTTP` : '';
    return [['ingest through single creates over RPC (Redis), concurrency 64', `${rpcActionsPerSec}/s${ratio}`, '≥ 1 × HTTP single create']];
  },
  unsignedCost: unsignedRows,
  firing: firingRows,
  throughput: throughputRows,
  fairness: () => {
    const f = find<FairnessFigures>('fairness')!;
    const count = (n: number) => n.toLocaleString('en');
    return [
      [
        `fairness: tenant B's ${count(f.other)} actions due at the instant of tenant A's ${count(f.burst)}, queued after them, ${f.workers} workers`,
        `B's firing lag p99 ${f.otherLag.p99Ms} ms (p50 ${f.otherLag.p50Ms} ms, ${f.otherLag.early} early; A's first started ${f.burstFirstLagMs} ms late, ${f.burstStartedBeforeOtherPercent} % of A's before B's last); A drained in ${f.burstDrainMs} ms vs ${f.burstAloneDrainMs} ms alone → ${(f.burstDrainMs / f.burstAloneDrainMs).toFixed(2)} ×`,
        "B's p99 ≤ 250 ms; A's drain ≤ 1.1 × alone",
      ],
    ];
  },
  webhooks: () => {
    const webhooks = find<WebhookFigures>('webhooks')!;
    return [
      [
        'throughput with one webhook subscription on every event, 1 worker',
        `${webhooks.jobsPerSec}/s (${cpuText(webhooks.cpuMsPerJob)}) vs ${webhooks.withoutWebhooksJobsPerSec}/s without (${cpuText(webhooks.withoutWebhooksCpuMsPerJob)}) → ${(webhooks.jobsPerSec / webhooks.withoutWebhooksJobsPerSec).toFixed(2)} ×; ${webhooks.eventsReceived} events received, ${webhooks.eventsLost} lost, the last ${webhooks.allDeliveredAfterSec} s after the last action`,
        '≥ 0.6 × without, 0 lost',
      ],
    ];
  },
  backlogMemory: () => {
    const backlog = find<{ points: { actions: number; redisUsedMemory: number }[] }>('backlogMemory')!.points;
    const growth = backlog[backlog.length - 1].redisUsedMemory / backlog[0].redisUsedMemory - 1;
    return [
      [
        `Redis memory, 0 → ${backlog[backlog.length - 1].actions.toLocaleString('en')} far-future actions`,
        `${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)} %`,
        'flat (±10 %)',
      ],
    ];
  },
  boundedReads: () => {
    const reads = find<ReadFigures>('boundedReads')!;
    const latency = (f: { p50Ms: number; p99Ms: number }) => `p99 ${f.p99Ms} ms (p50 ${f.p50Ms} ms)`;
    return [
      [
        `GET /actions/stats at ${reads.actions.toLocaleString('en')} actions`,
        `${latency(reads.stats)}; with ${reads.statsUnfolded.pendingDeltas.toLocaleString('en')} unfolded deltas ${latency(reads.statsUnfolded)}`,
        'p99 ≤ 50 ms',
      ],
      [`first history page (1,000 of ${reads.historyEntries.toLocaleString('en')} entries)`, latency(reads.historyFirstPage), 'p99 ≤ 20 ms'],
    ];
  },
  yearOfHistory: () => {
    const year = find<YearFigures>('yearOfHistory')!;
    const latency = (f: { p50Ms: number; p99Ms: number }) => `p99 ${f.p99Ms} ms (p50 ${f.p50Ms} ms)`;
    const count = (n: number) => n.toLocaleString('en');
    const state = (reads: YearFigures['yearKept']) => `${count(reads.historyEntries)} history entries in ${reads.historyPartitions} partitions`;
    const kept = `a year kept (${state(year.yearKept)})`;
    const after = `after the default ${year.retentionDays}-day retention dropped ${year.upkeep.droppedPartitions} partitions in ${year.upkeep.ms} ms (${state(year.afterRetention)})`;
    return [
      [`GET /actions/stats at ${count(year.actions)} actions, ${kept}`, latency(year.yearKept.stats), 'p99 ≤ 50 ms'],
      [`first history page of a TEN_MINS action, ${kept}`, latency(year.yearKept.historyFirstPage), 'p99 ≤ 20 ms'],
      [`GET /actions/stats at ${count(year.actions)} actions, ${after}`, latency(year.afterRetention.stats), 'p99 ≤ 50 ms'],
      [`first history page of a TEN_MINS action, ${after}`, latency(year.afterRetention.historyFirstPage), 'p99 ≤ 20 ms'],
    ];
  },
  occurrenceCost: () =>
    find<{ schedules: OccurrenceCost[] }>('occurrenceCost')!.schedules.map((cost): Row => [
      `next occurrence, ${cost.schedule}`,
      `p99 ${cost.p99Us} µs (p50 ${cost.p50Us} µs)`,
      'no target: the cost per run',
    ]),
  cronFiring: () => {
    const cron = find<{ actions: number; cron: LagFigures; oneOff: LagFigures }>('cronFiring')!;
    return [
      [
        `firing lag, ${cron.actions.toLocaleString('en')} actions due in one second: cron vs one-off`,
        `${lagText(cron.cron)} vs ${lagText(cron.oneOff)}`,
        'no measurable change',
      ],
    ];
  },
  calendarChange: () => {
    const change = find<CalendarChangeFigures>('calendarChange')!;
    return [
      [
        `PUT /calendars/:name (${change.dates.toLocaleString('en')} dates) named by ${change.actions.toLocaleString('en')} actions`,
        `p99 ${change.p99Ms} ms (p50 ${change.p50Ms} ms)`,
        'well under a second: p99 ≤ 250 ms',
      ],
    ];
  },
  observability: observabilityRows,
  costlyRequests: costlyRequestRows,
};

/** What one tenant's costliest requests cost the API, and what they leave of its liveness probe. */
function costlyRequestRows(): Row[] {
  const costly = find<CostlyRequestFigures>('costlyRequests')!;
  const worst = (name: string, cost: CostlyRequestFigures['batch']) =>
    `${name} ${cost.maxCpuMs} ms, median ${cost.medianCpuMs} ms (answered in ≤ ${cost.maxMs} ms)`;
  return [
    [
      `GET /health/live while one tenant sends, ${costly.rounds} times each, a batch of 1,000 distinct dense crons, a preview and a listing of a per-second cron past a calendar covering the coming days`,
      `p99 ${costly.liveUnderLoad.p99Ms} ms (max ${costly.liveUnderLoad.maxMs} ms, ${costly.liveUnderLoad.probes} probes); alone p99 ${costly.liveAlone.p99Ms} ms`,
      'p99 ≤ 100 ms',
    ],
    [
      'the most API CPU one of those requests took (/proc, 10 ms ticks)',
      `${worst('batch', costly.batch)}; ${worst('preview', costly.preview)}; ${worst('occurrences', costly.occurrences)}; ${costly.batchesOverRate} batches over the create rate`,
      '≤ 50 ms a request',
    ],
  ];
}

function printTable(): void {
  const rows = options.only.flatMap((workload) => ROWS[workload]());
  const sizes = quick ? ' (--quick sizes: smoke run, not comparable)' : '';
  process.stdout.write(`\n${results.machine.cpus} × ${results.machine.model}, Node ${results.machine.node}${sizes}\n\n`);
  process.stdout.write('| figure | measured | target |\n| --- | --- | --- |\n');
  for (const row of rows) process.stdout.write(`| ${row.join(' | ')} |\n`);
}

/** The baselines of the throughput rows; pg-boss's and Graphile Worker's ratios are printed but have no target. */
const THROUGHPUT_BASELINES = ['raw BullMQ', 'pg-boss', 'Graphile Worker', 'BullMQ on Postgres'] as const;

function throughputRows(): Row[] {
  const rows: Row[] = [];
  const cpu = (figures: { cpuMsPerJob: CpuPerJob }) => figures.cpuMsPerJob.total?.toFixed(2) ?? 'n/a';
  for (const workers of SIZES.workers) {
    const p = tp('Punctual', workers);
    const baselines = THROUGHPUT_BASELINES.map((name) => {
      const b = tp(name, workers);
      return `${name} ${b.jobsPerSec}/s, ${cpu(b)} CPU-ms → ${(p.jobsPerSec / b.jobsPerSec).toFixed(2)} ×`;
    });
    rows.push([
      `fulfilled throughput, all due at once, ${workers} worker(s)`,
      `Punctual ${p.jobsPerSec}/s, ${cpu(p)} CPU-ms per action (machine CPU ${p.machineCpuPercent} %); ${baselines.join('; ')}`,
      workers === 1 ? '≥ 0.7 × raw BullMQ, ≥ 0.7 × pg-boss' : 'more than with 1 worker',
    ]);
  }
  for (const workers of SIZES.workers) {
    const [p, raw] = [tp('Punctual', workers).cpuMsPerJob, tp('raw BullMQ', workers).cpuMsPerJob];
    const ratio = p.total === null || raw.total === null ? '' : ` → ${(p.total / raw.total).toFixed(2)} ×`;
    rows.push([`CPU per fired action, ${workers} worker(s)`, `Punctual ${cpuText(p)}; raw BullMQ ${cpuText(raw)}${ratio}`, "≤ 1.5 × raw BullMQ's"]);
  }
  rows.push([
    '1 → 2 workers',
    `${(tp('Punctual', 2).jobsPerSec / tp('Punctual', 1).jobsPerSec).toFixed(2)} × (machine CPU ${tp('Punctual', 1).machineCpuPercent} % → ${tp('Punctual', 2).machineCpuPercent} %)`,
    '≥ 1.5 × where the cores allow (machine CPU below 100 % with 1)',
  ]);
  const message = tp('Punctual MESSAGE', 1);
  rows.push([
    'MESSAGE throughput, no-op sibling over Redis, 1 worker',
    `${message.jobsPerSec}/s → ${(message.jobsPerSec / tp('Punctual', 1).jobsPerSec).toFixed(2)} × the no-op type`,
    '≥ 0.7 × the no-op type',
  ]);
  return rows;
}

/** The baselines without Redis, measured once in the firing workload. */
const POSTGRES_ONLY = ['pg-boss', 'Graphile Worker', 'BullMQ on Postgres'] as const;

function firingRows(): Row[] {
  const lag = (system: string, duePerSec: number, redisHz: number | null) => find<LagFigures>('firing', { system, duePerSec, redisHz });
  const hzValues = [...new Set(results.measurements.filter((m) => m.workload === 'firing' && m.redisHz !== null).map((m) => m.redisHz as number))];
  return SIZES.firing.flatMap(({ perSec }) =>
    hzValues.map((hz): Row => {
      const [punctual, raw] = [lag('Punctual', perSec, hz), lag('raw BullMQ', perSec, hz)];
      const ratio = punctual && raw ? ` → ${(punctual.p99Ms / raw.p99Ms).toFixed(2)} ×` : '';
      const postgresOnly = POSTGRES_ONLY.map((name) => `${name} ${lagText(lag(name, perSec, null))}`);
      return [
        `firing lag p99 at ${perSec} due/s, Redis hz ${hz}`,
        `${lagText(punctual)}; raw BullMQ ${lagText(raw)}${ratio}; ${postgresOnly.join('; ')}`,
        "≤ 1.5 × raw BullMQ's at the same due rate and hz, none early",
      ];
    }),
  );
}

/** Unauthenticated requests: refused on their bytes, before any parsing, so what they hold costs nothing. */
function unsignedRows(): Row[] {
  const { tiny, nested, liveAlone, liveUnderLoad } = find<UnsignedFigures>('unsignedCost')!;
  return [
    [
      'unsigned POST /actions/batch → 401: 1 MB of nested arrays vs `{}`',
      `p50 ${nested.p50Ms} ms vs ${tiny.p50Ms} ms; API CPU ${nested.apiCpuMs} vs ${tiny.apiCpuMs} ms per request; event loop held up at most ${nested.loopLagMaxMs} vs ${tiny.loopLagMaxMs} ms`,
      'p50 ≤ 3 × the tiny one + 5 ms (parsing the body would hold the loop ≥ 250 ms)',
    ],
    [
      `GET /health/live while ${liveUnderLoad.clients} clients send unsigned 1 MB bodies of nested arrays without pause`,
      `p99 ${liveUnderLoad.p99Ms} ms (max ${liveUnderLoad.maxMs} ms); alone p99 ${liveAlone.p99Ms} ms`,
      'p99 ≤ 100 ms',
    ],
  ];
}

/**
 * Metrics and JSON logs on beside off: the mean of each side's rounds. The CPU time per operation
 * of the process doing it is the steadier measure of their cost; rates also move with whatever
 * else the machine runs.
 */
function observabilityRows(): Row[] {
  const runs = results.measurements.filter((m) => m.workload === 'observability') as unknown as ObservabilityFigures[];
  const mean = (mode: string, figure: keyof ObservabilityFigures) => {
    const values = runs.filter((run) => run.mode === mode).map((run) => Number(run[figure]));
    return values.reduce((a, b) => a + b, 0) / values.length;
  };
  const compare = (rate: keyof ObservabilityFigures, cpu: keyof ObservabilityFigures, unit: string) => {
    const [rateOn, rateOff, cpuOn, cpuOff] = [mean('on', rate), mean('off', rate), mean('on', cpu), mean('off', cpu)];
    const percent = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(1)} %`;
    return `${Math.round(rateOn)}/s vs ${Math.round(rateOff)}/s (${percent(100 * (rateOn / rateOff - 1))}); CPU ${cpuOn.toFixed(2)} vs ${cpuOff.toFixed(2)} ms per ${unit} (${percent(100 * (cpuOn / cpuOff - 1))})`;
  };
  return [
    [
      'single POST /actions, concurrency 64: metrics and JSON logs on vs off',
      compare('singleActionsPerSec', 'apiCpuMsPerCreate', 'create (API)'),
      '≤ 5 % cost',
    ],
    ['fulfilled throughput, 1 worker: metrics and JSON logs on vs off', compare('jobsPerSec', 'workerCpuMsPerJob', 'job (worker)'), '≤ 5 % cost'],
  ];
}

main().catch((error: Error) => {
  process.stderr.write(`Benchmark failed: ${error.stack ?? error.message}\n`);
  process.exit(1);
});
