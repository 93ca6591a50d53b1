import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitUntil } from '@app/testing';
import { freePort } from './support/free-port';

const ROOT = join(__dirname, '..');

function answers(port: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function script(name: string, env: Record<string, string>, ...args: string[]): string {
  return execFileSync('bash', [join(ROOT, 'scripts', name), ...args], { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8' });
}

// What `npm run dev` stops on Ctrl+C: the services scripts/services.sh started, and nothing that already ran.
describe('services started for npm run dev', () => {
  const hasRedisServer = (() => {
    try {
      execFileSync('bash', ['-c', 'command -v redis-server && ! (command -v docker && docker info) >/dev/null 2>&1']);
      return true;
    } catch {
      return false;
    }
  })();
  (hasRedisServer ? it : it.skip)(
    'are noted when started, the running ones are not, and stopping stops only the noted ones',
    async () => {
      const port = await freePort();
      const noted = join(mkdtempSync(join(tmpdir(), 'punctual-dev-services-')), 'started');
      // Postgres already runs (the test database): only the Redis on a free port is started.
      script('services.sh', { REDIS_URL: `redis://127.0.0.1:${port}`, SERVICES_STARTED_FILE: noted });
      try {
        expect(await answers(port)).toBe(true);
        expect(readFileSync(noted, 'utf8').trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`^pidfile \\S+-${port}\\.pid$`))]);
      } finally {
        script('stop-services.sh', {}, noted);
      }
      await waitUntil('the started Redis stops', async () => !(await answers(port)), 20_000, 100);
      expect(readFileSync(noted, 'utf8')).toBe('');
      const testRedisPort = new URL(process.env.REDIS_URL!).port || '6379';
      expect(await answers(testRedisPort)).toBe(true);
    },
    60_000,
  );
});
