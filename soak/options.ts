/** How one soak runs: `npm run soak -- [--quick] [--minutes N] [--rate N] [--redis single|cluster] [--seed N]`. */
export interface SoakOptions {
  quick: boolean;
  /** How long actions are created for; the drain and the audit come after. */
  minutes: number;
  /** Creates per second, spread over both APIs. */
  rate: number;
  /** A Redis Cluster of the soak's own (the default), or a database of the shared Redis. */
  redis: 'single' | 'cluster';
  /** Seeds the mix of actions and the chaos, so a failing run can be repeated. */
  seed: number;
}

/** What this 2-core machine sustains beside the five processes, Postgres and Redis: asked for 333/s, it created 187/s. */
const FULL = { minutes: 10, rate: 190 };
/** 2–5 minutes in all, with startup, drain and audit. */
const QUICK = { minutes: 1.5, rate: 100 };

function parseOptions(argv: string[]): SoakOptions {
  const given: Partial<SoakOptions> = {};
  let quick = false;
  for (let i = 0; i < argv.length; i += 1) {
    const value = () => {
      const next = argv[++i];
      if (next === undefined || next.startsWith('--')) throw new Error(`${argv[i - 1]} needs a value`);
      return next;
    };
    const positive = (name: string) => {
      const number = Number(value());
      if (!(number > 0)) throw new Error(`${name} needs a number above 0`);
      return number;
    };
    if (argv[i] === '--quick') quick = true;
    else if (argv[i] === '--minutes') given.minutes = positive('--minutes');
    else if (argv[i] === '--rate') given.rate = positive('--rate');
    else if (argv[i] === '--seed') given.seed = Math.floor(positive('--seed'));
    else if (argv[i] === '--redis') {
      const redis = value();
      if (redis !== 'single' && redis !== 'cluster') throw new Error('--redis is single or cluster');
      given.redis = redis;
    } else throw new Error(`unknown option ${argv[i]}`);
  }
  return { quick, ...(quick ? QUICK : FULL), redis: 'cluster', seed: Math.floor(Math.random() * 2 ** 31), ...given };
}

/** This process's command line; a usage error ends it with the message alone. */
export function commandLineOptions(): SoakOptions {
  try {
    return parseOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`npm run soak: ${(error as Error).message}\n`);
    process.exit(2);
  }
}
