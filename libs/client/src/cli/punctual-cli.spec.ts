import { once } from 'node:events';
import { AddressInfo, createServer } from 'node:net';
import { SIGNATURE_HEADERS, computeSignature, signaturePayload } from '@punctual/contract';
import { CLI_HELP } from './cli-help';
import { CliIo, runCli } from './punctual-cli';

/** Runs a command line with this environment; answers its exit code and what it wrote. */
async function cli(argv: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    env,
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    readStdin: async () => '',
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}

/** The headers of `-H Name:value …` curl arguments. */
function curlHeaders(output: string): Record<string, string> {
  return Object.fromEntries([...output.matchAll(/-H ([^:\s]+):(\S+)/g)].map((match) => [match[1], match[2]]));
}

describe('punctual, the command line', () => {
  it('signs a request as curl arguments, with the first key of API_KEYS when no key is named', async () => {
    const body = '{"action":"HTTP_REQUEST"}';
    const { code, stdout } = await cli(['sign', 'post', '/actions', body], { API_KEYS: 'k1:secret-one:team-a,k2:secret-two' });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^-H X-Punctual-Key:k1 -H X-Punctual-Timestamp:\d+ -H X-Punctual-Nonce:\S+ -H X-Punctual-Signature:v1=[0-9a-f]{64}\n$/);
    const headers = curlHeaders(stdout);
    const payload = signaturePayload(headers[SIGNATURE_HEADERS.timestamp], headers[SIGNATURE_HEADERS.nonce], 'POST', '/actions', body);
    expect(headers[SIGNATURE_HEADERS.signature]).toBe(computeSignature('secret-one', payload));
  });

  it('signs with the key named, from API_KEYS or with its own secret, the flags before the environment', async () => {
    const keys = { API_KEYS: 'k1:secret-one,k2:secret-two' };
    expect(curlHeaders((await cli(['sign', 'GET', '/actions'], { ...keys, PUNCTUAL_KEY_ID: 'k2' })).stdout)[SIGNATURE_HEADERS.key]).toBe('k2');
    const runtimeKey = await cli(['sign', 'GET', '/actions', '--key-id', 'made-at-run-time', '--secret', 's3'], { ...keys, PUNCTUAL_KEY_ID: 'k2' });
    const headers = curlHeaders(runtimeKey.stdout);
    expect(headers[SIGNATURE_HEADERS.key]).toBe('made-at-run-time');
    const payload = signaturePayload(headers[SIGNATURE_HEADERS.timestamp], headers[SIGNATURE_HEADERS.nonce], 'GET', '/actions', '');
    expect(headers[SIGNATURE_HEADERS.signature]).toBe(computeSignature('s3', payload));
  });

  it('prints a whole signed message for a message pattern', async () => {
    const { stdout } = await cli(['sign', 'RPC', 'punctual.actions.stats', '{}'], { PUNCTUAL_KEY_ID: 'k1', PUNCTUAL_SECRET: 'secret-one' });
    const message = JSON.parse(stdout) as { headers: Record<string, string>; body: string };
    expect(message.body).toBe('{}');
    const { headers } = message;
    const payload = signaturePayload(headers[SIGNATURE_HEADERS.timestamp], headers[SIGNATURE_HEADERS.nonce], 'RPC', 'punctual.actions.stats', '{}');
    expect(headers[SIGNATURE_HEADERS.signature]).toBe(computeSignature('secret-one', payload));
  });

  it.each([
    [['frobnicate'], 'unknown command "frobnicate"'],
    [['toString'], 'unknown command "toString"'],
    [['--url', 'http://127.0.0.1:9'], 'no command given'],
    [['get'], 'usage: punctual get ID'],
    [['get', 'a', 'b'], 'usage: punctual get ID'],
    [['get', 'a', '--note', 'x'], 'get does not take --note'],
    [['list', '--colour', 'red'], "Unknown option '--colour'"],
    [['sign', 'GET', 'actions'], 'the path must start with /: actions'],
    [['sign', 'GET', '/actions'], 'no key to sign with'],
    [['sign', 'GET', '/actions', '--key-id', 'k9'], 'no secret for key "k9"'],
    [['sign', 'GET', '/actions', '--secret', 's'], 'a secret needs its key'],
    [['create', '{not json'], 'the body is not JSON'],
    [['skip', 'a', '--count', 'two', '--key-id', 'k', '--secret', 's'], '--count must be a whole number'],
    [['preview', '{}', '--tz', 'Mars/Olympus', '--key-id', 'k', '--secret', 's'], 'not a time zone: Mars/Olympus'],
  ])('refuses %j with exit code 2, saying why', async (argv, reason) => {
    const { code, stdout, stderr } = await cli(argv);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(reason);
    expect(stderr).toContain('punctual --help');
  });

  it('prints its help for --help, -h, help and no arguments', async () => {
    for (const argv of [['--help'], ['-h'], ['help'], [], ['get', '--help']]) {
      expect(await cli(argv)).toEqual({ code: 0, stdout: CLI_HELP, stderr: '' });
    }
  });

  it('fails with exit code 1 naming the address when no server answers', async () => {
    const port = await closedPort();
    const { code, stderr } = await cli(['get', 'a1', '--url', `http://127.0.0.1:${port}/`, '--key-id', 'k', '--secret', 's']);
    expect(code).toBe(1);
    expect(stderr).toBe(`punctual: GET http://127.0.0.1:${port}/actions/a1 failed: fetch failed (ECONNREFUSED)\n`);
  });

  it('without --url or PUNCTUAL_URL, reaches the API of this machine at PORT', async () => {
    const port = await closedPort();
    const { code, stderr } = await cli(['get', 'a1'], { PORT: String(port), PUNCTUAL_KEY_ID: 'k', PUNCTUAL_SECRET: 's' });
    expect(code).toBe(1);
    expect(stderr).toMatch(new RegExp(`^punctual: GET http://localhost:${port}/actions/a1 failed: `));
  });

  it.each(['', 'eighty', '0', '65536', '3000.5'])('refuses PORT=%j when no address is given, and sends nothing', async (port) => {
    const { code, stdout, stderr } = await cli(['get', 'a1'], { PORT: port, PUNCTUAL_KEY_ID: 'k', PUNCTUAL_SECRET: 's' });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(`PORT must be a port number (1-65535) to reach the API on this machine, not "${port}"`);
  });
});

/** A port that was free a moment ago: nothing listens there. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}
