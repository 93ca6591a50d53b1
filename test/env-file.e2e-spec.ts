import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testHttp } from '@app/testing';
import { API_READY, AppProcess } from './support/app-process';

/** A port nothing listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

describe('.env in the working directory', () => {
  let api: AppProcess | undefined;
  afterEach(() => api?.kill('SIGKILL'));

  it('configures an app started without those variables, the real environment winning over the file', async () => {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'punctual-dotenv-'));
    const key = { keyId: 'dotenv-key', secret: 'dotenv-secret-0123456789' };
    writeFileSync(
      join(dir, '.env'),
      [
        `PORT=${port}`,
        `API_KEYS=${key.keyId}:${key.secret}`,
        'ADMIN_PASSWORD=from-the-env-file',
        // The real environment keeps the test database: were the file to win, the API could not start.
        'DATABASE_URL=postgres://postgres@127.0.0.1:1/unreachable',
      ].join('\n'),
    );
    api = await new AppProcess('api', { NODE_ENV: undefined, PORT: undefined, API_KEYS: undefined, ADMIN_PASSWORD: undefined }, { cwd: dir }).ready(
      API_READY,
    );

    const client = testHttp(`http://127.0.0.1:${port}`);
    expect((await client.get('/health', { unsigned: true })).body.info.postgres.status).toBe('up');
    // 404, not 401: the request was signed with the key the file listed.
    expect((await client.get(`/actions/${crypto.randomUUID()}`, key)).status).toBe(404);
    expect((await client.get(`/actions/${crypto.randomUUID()}`)).status).toBe(401);
  });
});
