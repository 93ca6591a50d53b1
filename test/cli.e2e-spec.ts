import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ActionResource, HistoryEntry, PunctualClient, RPC_PATTERNS, SignedHttp, SignedRpc } from '@punctual/client';
import { TEST_KEY } from '@app/testing';
import { tenantWithKey } from './support/admin-api';
import { mustRun } from './support/packed-project';
import { useRunningStack } from './support/running-stack';

// `punctual`, the client's command line, built as the package builds it and run as a child process
// against the real API: what it signs is accepted, what it sends is what the API serves, and a
// refusal is the server's own message.
jest.setTimeout(120_000);

const ROOT = join(__dirname, '..');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

describe('punctual, the command line of @punctual/client', () => {
  const stack = useRunningStack({ api: { RPC_TRANSPORT_URL: process.env.REDIS_URL! } });
  let build: string;
  let main: string;

  beforeAll(async () => {
    // Compiled as `npm run build` in libs/client compiles it, into a directory of this spec's own.
    build = await mkdtemp(join(tmpdir(), 'punctual-cli-'));
    const config = join(ROOT, 'libs', 'client', 'tsconfig.build.json');
    await mustRun(process.execPath, [join(ROOT, 'node_modules', '.bin', 'tsc'), '-p', config, '--outDir', build], ROOT);
    await mustRun(process.execPath, [join(ROOT, 'node_modules', '.bin', 'tsc-alias'), '-p', config, '--outDir', build], ROOT);
    main = join(build, 'client', 'src', 'cli', 'main.js');
  });
  afterAll(async () => {
    if (build) await rm(build, { recursive: true, force: true });
  });

  /** Runs `punctual …` with the API's address and the test key in its environment (unless `env` says otherwise). */
  function punctual(args: string[], options: { env?: Record<string, string | undefined>; stdin?: string; nodeArgs?: string[] } = {}): Promise<Run> {
    const env = {
      ...process.env,
      PUNCTUAL_URL: stack.api.client.baseUrl,
      PUNCTUAL_KEY_ID: TEST_KEY.keyId,
      PUNCTUAL_SECRET: TEST_KEY.secret,
      ...options.env,
    };
    const started = performance.now();
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), main, ...args], { env, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.stdin.end(options.stdin ?? '');
    return new Promise((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr, ms: performance.now() - started }));
    });
  }

  /** Runs a command that must succeed; answers its JSON output. */
  async function json<T>(args: string[], options?: Parameters<typeof punctual>[1]): Promise<T> {
    const run = await punctual(args, options);
    expect({ args, code: run.code, stderr: run.stderr }).toEqual({ args, code: 0, stderr: '' });
    return JSON.parse(run.stdout) as T;
  }

  const httpRequest = () => ({ action: 'HTTP_REQUEST', executionTime: Date.now() + 3_600_000, data: { url: stack.receiver.url('/cli') } });

  it('signs curl arguments that the API accepts, with the first key of API_KEYS when no key is given', async () => {
    const body = JSON.stringify(httpRequest());
    const signed = await punctual(['sign', 'POST', '/actions', body], { env: { PUNCTUAL_KEY_ID: undefined, PUNCTUAL_SECRET: undefined } });
    expect(signed.code).toBe(0);
    const headers = Object.fromEntries([...signed.stdout.matchAll(/-H ([^:\s]+):(\S+)/g)].map((m) => [m[1], m[2]]));
    expect(headers['X-Punctual-Key']).toBe(process.env.API_KEYS!.split(':')[0]);
    const response = await fetch(`${stack.api.client.baseUrl}/actions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
    expect(response.status).toBe(201);
  });

  it('signs a whole message for RPC, which the API accepts as it is', async () => {
    const message: unknown = JSON.parse((await punctual(['sign', 'RPC', RPC_PATTERNS.stats, '{}'])).stdout);
    const rpc = new SignedRpc({ transport: process.env.REDIS_URL!, ...TEST_KEY });
    try {
      await expect(rpc.sendMessage(RPC_PATTERNS.stats, message)).resolves.toMatchObject({ total: expect.any(Number) });
    } finally {
      await rpc.close();
    }
  });

  it('npm run sign prints the same curl arguments, from the repository', async () => {
    const output = await mustRun('npm', ['run', '-s', 'sign', '--', 'GET', '/actions/stats'], ROOT);
    const headers = Object.fromEntries([...output.matchAll(/-H ([^:\s]+):(\S+)/g)].map((m) => [m[1], m[2]]));
    expect(Object.keys(headers)).toEqual(['X-Punctual-Key', 'X-Punctual-Timestamp', 'X-Punctual-Nonce', 'X-Punctual-Signature']);
    expect((await fetch(`${stack.api.client.baseUrl}/actions/stats`, { headers })).status).toBe(200);
  });

  it('creates, reads, pauses, resumes, skips and cancels an action, and lists its history', async () => {
    const daily = { action: 'HTTP_REQUEST', repeat: true, cron: '0 9 * * *', data: { url: stack.receiver.url('/cli') } };
    const created = await json<ActionResource>(['create', '-', '--idempotency-key', `cli-${Date.now()}`], { stdin: JSON.stringify(daily) });
    expect(created).toMatchObject({ action: 'HTTP_REQUEST', status: 'PENDING', paused: false });
    expect(await json<ActionResource>(['get', created.id])).toEqual(
      await PunctualClient.overHttp({ baseUrl: stack.api.client.baseUrl, ...TEST_KEY }).get(created.id),
    );
    expect(await json<ActionResource>(['pause', created.id, '--note', 'from the terminal'])).toMatchObject({ paused: true });
    expect(await json<ActionResource>(['resume', created.id])).toMatchObject({ paused: false });
    const skipped = await json<ActionResource>(['skip', created.id, '--count', '2']);
    expect(Date.parse(skipped.executionTime) - Date.parse(created.executionTime)).toBe(2 * 86_400_000);
    expect(await json<ActionResource>(['cancel', created.id, '--note', 'done'])).toMatchObject({ status: 'CANCELED' });
    const listed = await json<{ items: ActionResource[] }>(['list', '--status', 'CANCELED', '--action', 'HTTP_REQUEST', '--limit', '100']);
    expect(listed.items.map((item) => item.id)).toContain(created.id);

    const history = await json<HistoryEntry[]>(['history', created.id]);
    const notes = history.map((entry) => entry.note ?? '');
    expect(notes.some((note) => note.startsWith('paused: from the terminal'))).toBe(true);
    expect(notes.some((note) => note.startsWith('resumed'))).toBe(true);
    expect(history.at(-1)).toMatchObject({ to: 'CANCELED' });
  });

  it('without PUNCTUAL_URL, reaches the API on this machine at PORT, as npm run punctual reads it from .env', async () => {
    const created = await json<ActionResource>(['create', JSON.stringify(httpRequest())]);
    const env = { PUNCTUAL_URL: undefined, PORT: new URL(stack.api.client.baseUrl).port };
    expect(await json<ActionResource>(['get', created.id], { env })).toEqual(created);
  });

  it('signs with a key made at run time through the admin API, given by flags', async () => {
    const { key } = await tenantWithKey(stack.api.client.baseUrl, `cli-${Date.now().toString(36)}`, {});
    const created = await json<ActionResource>(['create', JSON.stringify(httpRequest()), '--key-id', key.keyId, '--secret', key.secret]);
    // Another tenant's action: the test key does not see it.
    expect((await punctual(['get', created.id])).code).toBe(1);
    expect(await json<ActionResource>(['get', created.id, '--key-id', key.keyId, '--secret', key.secret])).toEqual(created);
  });

  it('previews a schedule in the time zone asked for, each line the time the server answered', async () => {
    const body = {
      action: 'HTTP_REQUEST' as const,
      repeat: true,
      cron: '0 9 * * *',
      timezone: 'Europe/Berlin',
      data: { url: stack.receiver.url('/cli') },
    };
    const { occurrences } = await PunctualClient.overHttp({ baseUrl: stack.api.client.baseUrl, ...TEST_KEY }).preview(body, 4);
    for (const [zone, hours] of [
      ['Europe/Berlin', ['09']],
      ['Asia/Kolkata', ['12', '13']],
      ['UTC', ['07', '08']],
    ] as const) {
      const run = await punctual(['preview', JSON.stringify(body), '--count', '4', '--tz', zone]);
      expect(run).toMatchObject({ code: 0, stderr: '' });
      const lines = run.stdout.trimEnd().split('\n');
      const shown = lines.map((line) => /^\w{3} (\d{4}-\d{2}-\d{2}) (\d{2}):(\d{2}:\d{2}) ([+-]\d{2}:\d{2})$/.exec(line));
      expect({ zone, lines, parsed: shown.every(Boolean) }).toEqual({ zone, lines, parsed: true });
      expect(shown.map((m) => new Date(`${m![1]}T${m![2]}:${m![3]}${m![4]}`).toISOString())).toEqual(occurrences);
      for (const m of shown) expect(hours).toContain(m![2]);
    }
  });

  it("prints the server's refusal and exits 1, as for a wrong secret", async () => {
    const expected = await new SignedHttp({ baseUrl: stack.api.client.baseUrl, keyId: TEST_KEY.keyId, secret: 'not-the-secret-0123456789' }).get<{
      statusCode: number;
      error: string;
      message: string;
    }>('/actions?limit=1');
    expect(expected.status).toBe(401);
    const run = await punctual(['list', '--limit', '1', '--secret', 'not-the-secret-0123456789']);
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr).toBe(`punctual: 401 ${expected.body.error}: ${expected.body.message}\n`);

    const missing = await punctual(['get', '00000000-0000-4000-8000-000000000000']);
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toMatch(/^punctual: 404 Not Found: .+\n$/);
  });

  it('answers a wrong command line with its usage and exit code 2', async () => {
    const run = await punctual(['pause']);
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toBe('punctual: usage: punctual pause ID\nRun "punctual --help" for the commands and options.\n');
  });

  it('starts at once: --help and an HTTP command load nothing of Nest or RxJS', async () => {
    // Lists what each run loaded, as it exits: the build's own files alone, none of a dependency (the build is in no
    // node_modules, so a run that needed one would fail to find it).
    const preload = join(tmpdir(), `punctual-cli-loaded-${process.pid}.js`);
    await writeFile(preload, `process.on('exit', () => process.stderr.write(JSON.stringify(Object.keys(require.cache))));\n`);
    for (const args of [['--help'], ['list', '--limit', '1']]) {
      const run = await punctual(args, { nodeArgs: ['-r', preload] });
      expect(run.code).toBe(0);
      const loaded = JSON.parse(run.stderr) as string[];
      expect({ args, others: loaded.filter((path) => !path.startsWith(build) && path !== preload) }).toEqual({ args, others: [] });
    }
    // Wall time includes starting Node itself, on a machine other specs may be loading: the bound is generous, the figure is printed.
    await rm(preload);
    const times: number[] = [];
    for (let i = 0; i < 3; i++) times.push((await punctual(['--help'])).ms);
    const fastest = Math.min(...times);
    console.log(`punctual --help took ${times.map((ms) => ms.toFixed(0)).join(', ')} ms`);
    expect(fastest).toBeLessThan(1_500);
  });
});
