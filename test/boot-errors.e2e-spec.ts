import { AppProcess } from './support/app-process';
import { freePort } from './support/free-port';

/**
 * A process started against a Postgres or Redis that does not answer stops at once with one line
 * that names the variable to fix and the address it names, and exits non-zero: no retry loop, no stack.
 */
// Each case starts a process from the TypeScript sources: on a loaded machine that alone takes tens of seconds.
const START_MS = 180_000;

describe('Starting without a store', () => {
  it.each(['api', 'worker'] as const)(
    '%s: Postgres unreachable → one line naming DATABASE_URL and the address, exit 1',
    async (app) => {
      const port = await freePort();
      const started = new AppProcess(app, { DATABASE_URL: `postgres://postgres:not-shown@127.0.0.1:${port}/punctual` });
      expect((await started.exited).code).toBe(1);
      expect(started.logs()).toBe(
        `Punctual ${app === 'api' ? 'API' : 'worker'} cannot start: Postgres at 127.0.0.1:${port} (DATABASE_URL) did not answer: connect ECONNREFUSED 127.0.0.1:${port}\n`,
      );
    },
    START_MS,
  );

  it.each(['api', 'worker'] as const)(
    '%s: Redis unreachable → one line naming REDIS_URL and the address, exit 1',
    async (app) => {
      const port = await freePort();
      const started = new AppProcess(app, { REDIS_URL: `redis://:not-shown@127.0.0.1:${port}/3`, REDIS_CLUSTER_NODES: undefined });
      expect((await started.exited).code).toBe(1);
      expect(started.logs()).toBe(
        `Punctual ${app === 'api' ? 'API' : 'worker'} cannot start: Redis at 127.0.0.1:${port} (REDIS_URL) did not answer: connect ECONNREFUSED 127.0.0.1:${port}\n`,
      );
    },
    START_MS,
  );
});
