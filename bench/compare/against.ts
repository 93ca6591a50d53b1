/**
 * `npm run bench -- --against <git-ref> [--only <workloads>] [--rounds <n>] [--quick]`: this tree
 * and another commit measured in one run on the same Postgres and Redis, each by its own code.
 * Every round runs each workload in this tree, then in the other: first on a database dropped and
 * migrated afresh by that tree (cold), then again right after (warm). Prints each figure of both
 * and their ratio; writes bench/results/against-<commit>.json. With `--with <git-ref>` that commit,
 * built in a second temporary worktree, takes this tree's place (against-<commit>-with-<commit>.json).
 */
import { ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Redis from 'ioredis';
import { BENCH_ENV } from '../bench-env';
import { MACHINE } from '../machine';
import { BenchOptions, isComparable } from '../options';
import { benchSizes } from '../sizes';
import { dropBenchStores } from './fresh-stores';
import { compareFigures, Measurement, printComparison } from './summary';
import { DriverTask, taskFor } from './tasks';
import { declaredNodeLine, nodeCommandFor } from './tree-runtime';
import { git, temporaryWorktree, THIS_ROOT } from './worktree';

const DRIVER = join(__dirname, 'driver.ts');
const THIS_LABEL = 'this tree';

/** The driver running now, told to stop when this process is. */
let driver: ChildProcess | undefined;

/** Runs the driver with `root` as its tree (its ts-node, its tsconfig paths, its bench/) and returns its JSON line. */
function runDriver(root: string, task: DriverTask): Promise<Record<string, unknown>> {
  const node = nodeCommandFor(root);
  const args = [...node.prefix, '-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', DRIVER, JSON.stringify(task)];
  const child = spawn(node.command, args, {
    cwd: root,
    // The same stores for both trees, whatever each tree's bench-env.ts defaults to.
    env: {
      ...process.env,
      ...node.env,
      TS_NODE_PROJECT: join(root, 'tsconfig.json'),
      BENCH_DATABASE_URL: BENCH_ENV.DATABASE_URL,
      BENCH_REDIS_URL: BENCH_ENV.REDIS_URL,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  driver = child;
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.once('close', (code) => {
      driver = undefined;
      if (code !== 0) return reject(new Error(`${task.workload} in ${root} exited with ${code}`));
      resolve(JSON.parse(output.trim().split('\n').pop()!) as Record<string, unknown>);
    }),
  );
}

async function redisHz(): Promise<number> {
  const redis = new Redis(BENCH_ENV.REDIS_URL);
  try {
    return Number((await redis.config('GET', 'hz'))[1]);
  } finally {
    redis.disconnect();
  }
}

export async function compareAgainst(ref: string, options: BenchOptions): Promise<void> {
  // Exiting removes the worktree, so a signal must exit rather than kill; the driver stops its tree's apps.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      driver?.kill('SIGTERM');
      process.exit(130);
    });
  }
  const started = Date.now();
  const other = temporaryWorktree(ref);
  const otherLabel = git(['rev-parse', '--short', other.sha]);
  const measured = options.with === undefined ? undefined : temporaryWorktree(options.with);
  const thisLabel = measured === undefined ? THIS_LABEL : git(['rev-parse', '--short', measured.sha]);
  if (thisLabel === otherLabel) throw new Error(`--with and --against both name ${otherLabel}`);
  const trees = [
    { label: thisLabel, root: measured?.root ?? THIS_ROOT },
    { label: otherLabel, root: other.root },
  ];
  const tasks = options.only.filter(isComparable).map((workload) => taskFor(workload, benchSizes(options.quick)));
  const measurements: Measurement[] = [];
  for (let round = 1; round <= options.rounds; round += 1) {
    for (const task of tasks) {
      for (const tree of trees) {
        await dropBenchStores();
        for (const database of ['cold', 'warm'] as const) {
          const line = { round, tree: tree.label, database, ...(await runDriver(tree.root, task)) } as Measurement;
          measurements.push(line);
          process.stdout.write(`${JSON.stringify(line)}\n`);
        }
      }
    }
  }

  const figures = compareFigures(tasks, measurements, thisLabel, otherLabel);
  const head = git(['rev-parse', '--short', 'HEAD']);
  const sizes = options.quick ? ', --quick sizes (a smoke run)' : '';
  const measuredTree = measured === undefined ? `this tree (the working tree at HEAD ${head})` : thisLabel;
  const lines = trees.map((tree) => `${tree.label} on Node ${declaredNodeLine(tree.root)}`).join(', ');
  const heading = `${MACHINE.cpus} × ${MACHINE.model} (${lines}); ${measuredTree} vs ${otherLabel}, ${options.rounds} interleaved round(s)${sizes}; median (each round)`;
  printComparison(figures, thisLabel, otherLabel, heading);
  const results = {
    machine: MACHINE,
    quick: options.quick,
    rounds: options.rounds,
    thisTree: measured === undefined ? { root: THIS_ROOT, head } : { ref: options.with, sha: measured.sha },
    other: { ref, sha: other.sha },
    redisHz: await redisHz(),
    durationSec: Math.round((Date.now() - started) / 1000),
    comparison: figures,
    measurements,
  };
  const file = measured === undefined ? `against-${otherLabel}.json` : `against-${otherLabel}-with-${thisLabel}.json`;
  mkdirSync(join(THIS_ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(join(THIS_ROOT, 'bench', 'results', file), `${JSON.stringify(results, null, 2)}\n`);
}
