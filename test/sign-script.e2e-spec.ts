import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { RPC_PATTERNS } from '@punctual/contract';
import { SignedRpc } from '@punctual/client';
import { TEST_KEY } from '@app/testing';
import { ApiTestApp, startApiApp } from './support/api-test-app';
import { emptyTables, httpRequestExample } from './support/fixtures';

const ROOT = join(__dirname, '..');

/** `npm run -s sign -- …` as a shell runs it, with the test keys in the environment. */
function sign(...args: string[]): string {
  return execFileSync(
    process.execPath,
    [
      '-r',
      require.resolve('ts-node/register/transpile-only'),
      '-r',
      require.resolve('tsconfig-paths/register'),
      join(ROOT, 'scripts', 'sign.ts'),
      ...args,
    ],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, TS_NODE_PROJECT: join(ROOT, 'tsconfig.json') } },
  );
}

describe('npm run sign', () => {
  let api: ApiTestApp;

  beforeAll(async () => {
    api = await startApiApp(undefined, { RPC_TRANSPORT_URL: process.env.REDIS_URL! });
    await emptyTables(api.db);
  });
  afterAll(() => api.close());

  it('prints curl arguments whose headers the API accepts', async () => {
    const body = JSON.stringify(httpRequestExample());
    const headers = Object.fromEntries([...sign('POST', '/actions', body).matchAll(/-H ([^:\s]+):(\S+)/g)].map((m) => [m[1], m[2]]));
    expect(headers['X-Punctual-Key']).toBe(TEST_KEY.keyId);
    const response = await fetch(`${api.client.baseUrl}/actions`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    expect(response.status).toBe(201);
  });

  it('prints a whole signed message for RPC, which the API accepts as it is', async () => {
    const message: unknown = JSON.parse(sign('RPC', RPC_PATTERNS.stats, '{}'));
    const rpc = new SignedRpc({ transport: process.env.REDIS_URL!, ...TEST_KEY });
    try {
      await expect(rpc.sendMessage(RPC_PATTERNS.stats, message)).resolves.toMatchObject({ total: expect.any(Number) });
    } finally {
      await rpc.close();
    }
  });
});
