import { pick } from './random';
import { SoakRedisCluster } from './redis-cluster';
import { SoakStack } from './stack';

/** How long a cut keeps Postgres unreachable: longer than most of a claim's lease (CLAIM_LEASE_MS), so running attempts lose theirs. */
const POSTGRES_CUT_MS = 4000;

interface Step {
  name: string;
  /** Breaks something and waits for it to be whole again; says what it did. */
  run(): Promise<string>;
}

function steps(stack: SoakStack, cluster: SoakRedisCluster | null, random: () => number): Step[] {
  const worker = () => Math.floor(random() * stack.workerCount);
  const list: Step[] = [
    { name: 'kill worker', run: async () => `worker pid ${await stack.replaceWorker(worker(), 'SIGKILL')} SIGKILLed, another started` },
    { name: 'stop worker', run: async () => `worker pid ${await stack.replaceWorker(worker(), 'SIGTERM')} stopped by SIGTERM, another started` },
    {
      name: 'kill api',
      run: async () => `API pid ${await stack.killApi(Math.floor(random() * stack.apiCount))} SIGKILLed and restarted on its port`,
    },
    {
      name: 'cut postgres',
      run: async () => {
        await stack.cutPostgres(POSTGRES_CUT_MS);
        return `every Postgres connection cut, new ones refused for ${POSTGRES_CUT_MS} ms`;
      },
    },
  ];
  if (cluster) {
    list.push({ name: 'fail over master', run: () => cluster.failOverMaster(random) });
    list.push({ name: 'flush replica', run: () => cluster.flushReplica(random) });
  }
  return list;
}

/**
 * Breaks one thing at a time, picked by the seeded `random`, about every `intervalMs`, until
 * `stopped()`; each step leaves the system whole again before the next. Prints each as it goes.
 */
export async function chaosLoop(
  stack: SoakStack,
  cluster: SoakRedisCluster | null,
  random: () => number,
  intervalMs: number,
  stopped: () => boolean,
  log: (line: string) => void,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  const available = steps(stack, cluster, random);
  for (;;) {
    const wait = intervalMs * (0.5 + random());
    const until = Date.now() + wait;
    while (Date.now() < until && !stopped()) await new Promise((resolve) => setTimeout(resolve, 100));
    if (stopped()) return counts;
    const step = pick(random, available);
    const started = Date.now();
    log(`chaos: ${await step.run()} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    counts.set(step.name, (counts.get(step.name) ?? 0) + 1);
  }
}
