/** The workloads of `npm run bench`, in the order it runs them, named as their JSON lines are. */
export const WORKLOADS = [
  'ingest',
  'rpcIngest',
  'unsignedCost',
  'firing',
  'throughput',
  'fairness',
  'webhooks',
  'backlogMemory',
  'boundedReads',
  'yearOfHistory',
  'occurrenceCost',
  'cronFiring',
  'calendarChange',
  'observability',
  'costlyRequests',
] as const;
export type Workload = (typeof WORKLOADS)[number];

/** The workloads `--against` measures unless `--only` picks: every commit's bench/ since 8ab4c93 has them. */
const COMPARED_BY_DEFAULT = ['ingest', 'firing', 'throughput'] as const satisfies readonly Workload[];
/** The workloads `--against` can measure: those, `fairness`, which bench/ has since abfff5e, and `webhooks`, as it is since c4f2a0e. */
export const COMPARABLE = [...COMPARED_BY_DEFAULT, 'fairness', 'webhooks'] as const satisfies readonly Workload[];
export type ComparableWorkload = (typeof COMPARABLE)[number];

export const isComparable = (workload: Workload): workload is ComparableWorkload => (COMPARABLE as readonly Workload[]).includes(workload);

export interface BenchOptions {
  quick: boolean;
  /** The workloads to run, in run order. */
  only: Workload[];
  /** A commit to measure beside this tree (`--against <git-ref>`), over `rounds` interleaved rounds. */
  against?: string;
  /** A commit measured against `against` in place of this tree (`--with <git-ref>`). */
  with?: string;
  rounds: number;
}

/** `--quick`, `--only a,b`, `--against <ref>`, `--with <ref>`, `--rounds <n>`; fails on anything else. */
function parseOptions(argv: string[]): BenchOptions {
  const options: BenchOptions = { quick: false, only: [...WORKLOADS], rounds: 2 };
  let only: string[] | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const value = () => {
      const next = argv[++i];
      if (next === undefined || next.startsWith('--')) throw new Error(`${argv[i - 1]} needs a value`);
      return next;
    };
    if (argv[i] === '--quick') options.quick = true;
    else if (argv[i] === '--only') only = value().split(',').filter(Boolean);
    else if (argv[i] === '--against') options.against = value();
    else if (argv[i] === '--with') options.with = value();
    else if (argv[i] === '--rounds') options.rounds = Number(value());
    else throw new Error(`unknown option ${argv[i]}`);
  }
  if (options.with !== undefined && options.against === undefined) throw new Error('--with needs --against <ref>, the commit to measure it against');
  if (!Number.isInteger(options.rounds) || options.rounds < 1) throw new Error('--rounds needs a whole number ≥ 1');
  const allowed: readonly string[] = options.against === undefined ? WORKLOADS : COMPARABLE;
  const unknown = (only ?? []).filter((name) => !allowed.includes(name));
  if (unknown.length > 0) throw new Error(`--only: ${unknown.join(', ')} not among ${allowed.join(', ')}`);
  const byDefault: readonly string[] = options.against === undefined ? WORKLOADS : COMPARED_BY_DEFAULT;
  options.only = WORKLOADS.filter((name) => (only ?? byDefault).includes(name));
  return options;
}

/** This process's command line; a usage error ends it with the message alone. */
export function commandLineOptions(): BenchOptions {
  try {
    return parseOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`npm run bench: ${(error as Error).message}\n`);
    process.exit(2);
  }
}
