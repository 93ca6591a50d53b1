/**
 * `npm run soak [-- --quick] [--minutes N] [--rate N] [--redis single|cluster] [--seed N]`: a steady
 * mix of one-off, recurring and cron HTTP_REQUEST actions over real receivers, while a chaos loop
 * kills and restarts workers and an API, fails over Redis, and cuts Postgres; then every action is
 * audited against what the receivers saw. Its last line is the verdict; it exits 1 on anything
 * lost, run twice, early or unscheduled.
 */
import Redis from 'ioredis';
import { waitUntil } from '@app/testing';
import { AuditFigures, audit } from './audit';
import { chaosLoop } from './chaos';
import { createActions } from './load';
import { commandLineOptions } from './options';
import { draftAction, PlannedAction } from './plan';
import { seededRandom } from './random';
import { SoakReceiver } from './receivers';
import { SoakRedisCluster } from './redis-cluster';
import { SoakDatabase } from './soak-database';
import { SOAK_CLUSTER, SOAK_DATABASE_URL, SOAK_SINGLE_REDIS_URL } from './soak-env';
import { SoakStack } from './stack';

const options = commandLineOptions();
const PROCESSES = { apis: 2, workers: 3 };
/** A chaos step about this often, on average. */
const CHAOS_INTERVAL_MS = options.quick ? 7000 : 15_000;
/** How long the last actions may take to finish once the load stops (the last are due up to 30 s after their create). */
const DRAIN_TIMEOUT_MS = options.quick ? 90_000 : 300_000;

const began = Date.now();
const log = (line: string) => process.stdout.write(`[soak +${((Date.now() - began) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);

/** Everything this run started, stopped in reverse order at its end or on Ctrl-C. */
const cleanups: (() => Promise<unknown>)[] = [];
async function cleanUp(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch((error: unknown) => log(`cleanup failed: ${String(error)}`));
}
process.once('SIGINT', () => {
  log('interrupted: stopping what the soak started');
  void cleanUp().finally(() => process.exit(130));
});

async function redisForApps(): Promise<{ env: Record<string, string>; cluster: SoakRedisCluster | null }> {
  if (options.redis === 'single') {
    const redis = new Redis(SOAK_SINGLE_REDIS_URL);
    await redis.flushdb(); // the soak's own database of the shared server
    redis.disconnect();
    return { env: { REDIS_URL: SOAK_SINGLE_REDIS_URL }, cluster: null };
  }
  const cluster = await SoakRedisCluster.start(SOAK_CLUSTER.firstPort, SOAK_CLUSTER.dir);
  cleanups.push(() => cluster.stop());
  return { env: { REDIS_CLUSTER_NODES: cluster.seeds }, cluster };
}

function report(figures: AuditFigures, extra: Record<string, unknown>): void {
  const ms = (value: number) => `${Number.isNaN(value) ? '-' : value.toFixed(0)} ms`;
  log(`summary ${JSON.stringify({ ...extra, ...figures })}`);
  process.stdout.write(
    [
      `actions ${figures.actions}, occurrences ${figures.occurrences}`,
      `lost ${figures.lost}, run twice ${figures.doubled}, early ${figures.early}, unscheduled ${figures.unscheduled}, unknown ${figures.unknown}`,
      `late p50 ${ms(figures.lateP50)}, p99 ${ms(figures.lateP99)}, max ${ms(figures.lateMax)}`,
      `interrupted and retried with the same idempotency key: ${figures.retriedOccurrences} occurrences (${figures.retriedCalls} calls)`,
      `soak: ${figures.actions} actions, lost ${figures.lost}, doubled ${figures.doubled}, early ${figures.early}, late p99 ${figures.lateP99.toFixed(0)} ms`,
    ].join('\n') + '\n',
  );
}

async function main(): Promise<number> {
  log(`seed ${options.seed}, ${options.minutes} min at ${options.rate} creates/s, Redis ${options.redis}`);
  const db = await SoakDatabase.fresh(SOAK_DATABASE_URL);
  cleanups.push(() => db.close());
  const redis = await redisForApps();
  const receivers = await Promise.all([new SoakReceiver().start(), new SoakReceiver().start()]);
  cleanups.push(() => Promise.all(receivers.map((receiver) => receiver.stop())));
  const stack = await SoakStack.start(SOAK_DATABASE_URL, redis.env, PROCESSES);
  cleanups.push(() => stack.stop());
  const clients = stack.clients();
  cleanups.push(async () => clients.forEach((client) => client.close()));
  log(`${PROCESSES.apis} APIs and ${PROCESSES.workers} workers ready`);

  const planned = new Map<string, PlannedAction>();
  const mix = seededRandom(options.seed);
  let loading = true;
  const chaos = chaosLoop(stack, redis.cluster, seededRandom(options.seed + 1), CHAOS_INTERVAL_MS, () => !loading, log);
  const progress = setInterval(
    () => log(`${planned.size} actions created, ${receivers.reduce((n, r) => n + r.arrivals.length, 0)} calls received`),
    30_000,
  );
  const load = await createActions(
    clients,
    options.rate,
    options.minutes * 60_000,
    (now) => draftAction(mix, now, (b) => receivers[Math.floor(mix() * receivers.length)].url(b)),
    planned,
  ).finally(() => (loading = false));
  const steps = await chaos;
  log(`load stopped: ${JSON.stringify(load)}; chaos: ${JSON.stringify(Object.fromEntries(steps))}`);

  const drained = await waitUntil('every action to finish', async () => (await db.unfinished()) === 0, DRAIN_TIMEOUT_MS, 1000).catch(() => false);
  clearInterval(progress);
  if (!drained) log(`${await db.unfinished()} actions still unfinished after ${DRAIN_TIMEOUT_MS / 1000} s`);
  await waitUntil('the receivers to answer their last calls', () => receivers.every((r) => r.unanswered === 0), 10_000).catch(() => undefined);

  const figures = audit(
    planned,
    receivers.flatMap((r) => r.arrivals),
    await db.recordedOccurrences(),
  );
  report(figures, {
    seed: options.seed,
    createdPerSecond: Math.round(load.created / (options.minutes * 60)),
    statuses: await db.statuses(),
    interruptedAttemptsRecorded: await db.interruptedAttempts(),
    createsResent: load.resent,
    createsGivenUp: load.givenUp,
    createsBehind: load.behind,
    chaos: Object.fromEntries(steps),
  });
  const failed = figures.lost + figures.doubled + figures.early + figures.unscheduled + load.givenUp > 0;
  return failed ? 1 : 0;
}

main()
  .then(async (code) => {
    await cleanUp();
    process.exit(code);
  })
  .catch(async (error: unknown) => {
    log(`failed: ${error instanceof Error ? error.stack : String(error)}`);
    await cleanUp();
    process.exit(1);
  });
