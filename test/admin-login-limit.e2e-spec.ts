import { Logger } from '@nestjs/common';
import express from 'express';
import { AddressInfo } from 'node:net';
import { Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '@app/config';
import { waitUntil } from '@app/testing';
import { AdminAuthMiddleware, AdminLoginLimiter } from '@app/server';
import { ApiTestApp, startApiApp } from './support/api-test-app';
import { API_READY, AppProcess } from './support/app-process';
import { freePort } from './support/free-port';

const ADMIN = { user: 'admin', password: 'admin-password' };
const WRONG_PASSWORD = 'wrong-pass-7c1e94';
const basic = (password: string, user = ADMIN.user) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/**
 * Client addresses no other spec or earlier run uses: the counts outlive a run in the test Redis by
 * up to 5 minutes. Each IPv6 address is in a /64 of its own, since a /64 shares one limit.
 */
const run = randomBytes(2).readUInt16BE().toString(16);
let addresses = 0;
const newNetwork = () => `2001:db8:${run}:${(++addresses).toString(16)}`;
const newAddress = () => `${newNetwork()}::1`;
const newIPv4 = () => `198.18.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0] % 254)}`;

/** What one request to `path` answered, sent as if from `address` through a trusted proxy (`TRUST_PROXY=loopback`). */
async function request(baseUrl: string, path: string, address: string | null, password?: string, user?: string) {
  const headers: Record<string, string> = {};
  if (address) headers['x-forwarded-for'] = address;
  if (password !== undefined) headers.authorization = basic(password, user);
  const response = await fetch(`${baseUrl}${path}`, { headers, redirect: 'manual' });
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    challenge: response.headers.get('www-authenticate'),
    body: await response.text(),
  };
}

/**
 * The limit on failed admin logins: 10 wrong logins from one address within 5 minutes, and every
 * /admin request from it answers 429 for 5 minutes. Counted in Redis, so across the console and
 * Bull Board and across API processes; requests without credentials do not count.
 */
describe('Failed admin logins', () => {
  const env = { TRUST_PROXY: 'loopback' };
  let api: ApiTestApp;
  let sibling: ApiTestApp;
  let base: string;

  beforeAll(async () => {
    // Two API processes' worth of apps on the same Redis, with the default limit (10 within 5 minutes).
    [api, sibling] = await Promise.all([startApiApp(undefined, env), startApiApp(undefined, env)]);
    base = api.client.baseUrl;
  });
  afterAll(async () => {
    await Promise.all([api?.close(), sibling?.close()]);
  });

  const fail = async (baseUrl: string, path: string, address: string) => {
    const answer = await request(baseUrl, path, address, WRONG_PASSWORD);
    expect({ path, status: answer.status }).toEqual({ path, status: 401 });
  };

  it('after 10 wrong passwords on the console and Bull Board together, refuses the address on both, even with the right password', async () => {
    const address = newAddress();
    for (let i = 0; i < 10; i += 1) await fail(base, i % 2 === 0 ? '/admin' : '/admin/queues', address);

    for (const path of ['/admin', '/admin/actions', '/admin/queues', '/admin/queues/api/queues']) {
      const answer = await request(base, path, address, ADMIN.password);
      expect({ path, status: answer.status }).toEqual({ path, status: 429 });
      // 5 minutes, counted from the 10th failure a moment ago.
      expect(Number(answer.retryAfter)).toBeGreaterThan(290);
      expect(Number(answer.retryAfter)).toBeLessThanOrEqual(300);
      expect(JSON.parse(answer.body)).toEqual(
        expect.objectContaining({ statusCode: 429, message: expect.stringMatching(/try again in \d+ s/), retryAfterSeconds: Number(answer.retryAfter) }),
      );
    }
    // Without credentials too: the block is on the address, not on a login.
    expect((await request(base, '/admin', address)).status).toBe(429);
  });

  it('lets the 10th failure through as a 401 and blocks only from the 11th request on', async () => {
    const address = newAddress();
    for (let i = 0; i < 9; i += 1) await fail(base, '/admin/queues', address);
    expect((await request(base, '/admin/queues', address, ADMIN.password)).status).toBe(200);
    // The successful login did not reset the count: this is failure 10.
    await fail(base, '/admin', address);
    expect((await request(base, '/admin', address, ADMIN.password)).status).toBe(429);
  });

  it('does not block another address, nor the proxy itself', async () => {
    const blocked = newAddress();
    for (let i = 0; i < 10; i += 1) await fail(base, '/admin', blocked);
    expect((await request(base, '/admin', blocked, ADMIN.password)).status).toBe(429);

    const other = newAddress();
    expect((await request(base, '/admin', other, ADMIN.password)).status).toBe(200);
    expect((await request(base, '/admin/queues', other, ADMIN.password)).status).toBe(200);
    expect((await request(base, '/admin', other, WRONG_PASSWORD)).status).toBe(401);
    // The loopback proxy's own requests (no X-Forwarded-For) are another address still.
    expect((await request(base, '/admin', null, ADMIN.password)).status).toBe(200);
  });

  it('does not count requests without an Authorization header: a browser sends one before the operator types', async () => {
    const address = newAddress();
    for (let i = 0; i < 25; i += 1) {
      const answer = await request(base, i % 2 === 0 ? '/admin' : '/admin/queues', address);
      expect(answer.status).toBe(401);
      expect(answer.challenge).toMatch(/^Basic realm="Punctual admin"/);
    }
    expect((await request(base, '/admin', address, ADMIN.password)).status).toBe(200);
    // The same address is counted once it sends wrong credentials.
    for (let i = 0; i < 10; i += 1) await fail(base, '/admin', address);
    expect((await request(base, '/admin', address, ADMIN.password)).status).toBe(429);
  });

  it('counts failures in Redis: two API processes see one count', async () => {
    const address = newAddress();
    for (let i = 0; i < 5; i += 1) await fail(base, '/admin', address);
    for (let i = 0; i < 5; i += 1) await fail(sibling.client.baseUrl, '/admin/queues', address);
    expect((await request(base, '/admin', address, ADMIN.password)).status).toBe(429);
    expect((await request(sibling.client.baseUrl, '/admin', address, ADMIN.password)).status).toBe(429);
  });

  it('counts the addresses of one IPv6 /64 together, and each address on its own too', async () => {
    const network = newNetwork();
    for (let i = 0; i < 5; i += 1) await fail(base, '/admin', `${network}::a`);
    // Another spelling of an address of the same /64.
    for (let i = 0; i < 5; i += 1) await fail(sibling.client.baseUrl, '/admin', `${network.toUpperCase()}:0:0:ffff:b`);
    for (const address of [`${network}::a`, `${network}::c`, `${network}:1234:5678:9abc:def0`]) {
      expect({ address, status: (await request(base, '/admin', address, ADMIN.password)).status }).toEqual({ address, status: 429 });
    }
    // The next /64 is another client.
    expect((await request(base, '/admin', `${newNetwork()}::a`, ADMIN.password)).status).toBe(200);
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address', async () => {
    const ipv4 = newIPv4();
    const [a, b, c, d] = ipv4.split('.').map(Number);
    const hexMapped = `::ffff:${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
    for (let i = 0; i < 4; i += 1) await fail(base, '/admin', ipv4);
    for (let i = 0; i < 3; i += 1) await fail(base, '/admin', `::ffff:${ipv4}`);
    for (let i = 0; i < 3; i += 1) await fail(base, '/admin', hexMapped);
    for (const address of [ipv4, `::ffff:${ipv4}`, hexMapped]) {
      expect({ address, status: (await request(base, '/admin', address, ADMIN.password)).status }).toEqual({ address, status: 429 });
    }
  });

  it('lets the address in again when the block ends, and counts afresh', async () => {
    const short = await startApiApp(undefined, { ...env, ADMIN_LOGIN_MAX_FAILURES: '3', ADMIN_LOGIN_BLOCK_MS: '2000' });
    try {
      const address = newAddress();
      for (let i = 0; i < 3; i += 1) await fail(short.client.baseUrl, '/admin', address);
      const refused = await request(short.client.baseUrl, '/admin', address, ADMIN.password);
      expect(refused.status).toBe(429);
      expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(refused.retryAfter)).toBeLessThanOrEqual(2);
      const blockedAt = Date.now();

      await waitUntil(
        'the block to end',
        async () => (await request(short.client.baseUrl, '/admin', address, ADMIN.password)).status === 200,
        10_000,
        100,
      );
      expect(Date.now() - blockedAt).toBeGreaterThan(500);
      // A new window: one failure is a 401 again, not a 429.
      await fail(short.client.baseUrl, '/admin', address);
      expect((await request(short.client.baseUrl, '/admin', address, ADMIN.password)).status).toBe(200);
    } finally {
      await short.close();
    }
  });
});

interface LogLine {
  level: string;
  msg: string;
  context: string;
  [field: string]: unknown;
}

/** The AdminLogin lines a process started with `LOG_FORMAT=json` logged. */
const loginLines = (process: AppProcess) =>
  process
    .logs()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine)
    .filter((line) => line.context === 'AdminLogin');

describe('Failed admin logins sent all at once', () => {
  let api: AppProcess;
  let baseUrl: string;

  beforeAll(async () => {
    // A process of its own, so the burst really arrives at once: this one's event loop only sends it.
    const port = await freePort();
    api = await new AppProcess('api', { LOG_FORMAT: 'json', PORT: port, TRUST_PROXY: 'loopback' }).ready(API_READY, 60_000);
    baseUrl = `http://127.0.0.1:${port}`;
  }, 90_000);
  afterAll(async () => {
    api?.kill('SIGTERM');
    await api?.exited;
  });

  it('checks and logs no more than 10 of 500 wrong logins sent at once; the others are refused unchecked, and the address is blocked', async () => {
    const address = newIPv4();
    const answers = await Promise.all(Array.from({ length: 500 }, () => request(baseUrl, '/admin', address, WRONG_PASSWORD)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(490);
    expect((await request(baseUrl, '/admin', address, ADMIN.password)).status).toBe(429);

    const lines = loginLines(api).filter((line) => line.clientAddress === address);
    expect(lines.map(({ msg, failures }) => ({ msg, failures }))).toEqual([
      ...Array.from({ length: 10 }, (_, i) => ({ msg: 'admin login failed', failures: i + 1 })),
      { msg: 'admin logins blocked', failures: 10 },
    ]);
    // An IPv4 client is counted by its address alone.
    expect(lines[10].blocked).toBe(address);
    expect(lines.some((line) => 'network' in line)).toBe(false);
  });
});

describe('Failed admin login logs', () => {
  const address = newAddress();
  // The text process shares the Redis count with the json one, so it gets an address (and /64) of its own.
  const textAddress = newAddress();
  const user = 'mallory';
  let json: AppProcess;
  let text: AppProcess;

  beforeAll(async () => {
    const env = async (format: string) => ({
      LOG_FORMAT: format,
      NO_COLOR: '1',
      PORT: await freePort(),
      TRUST_PROXY: 'loopback',
      ADMIN_LOGIN_MAX_FAILURES: '3',
    });
    const [jsonEnv, textEnv] = await Promise.all([env('json'), env('text')]);
    [json, text] = await Promise.all([new AppProcess('api', jsonEnv).ready(API_READY), new AppProcess('api', textEnv).ready(API_READY)]);
    for (const [process, port, from] of [
      [json, jsonEnv.PORT, address],
      [text, textEnv.PORT, textAddress],
    ] as const) {
      const baseUrl = `http://127.0.0.1:${port}`;
      expect((await request(baseUrl, '/admin', from)).status).toBe(401);
      for (let i = 0; i < 3; i += 1) expect((await request(baseUrl, '/admin/queues', from, WRONG_PASSWORD, user)).status).toBe(401);
      expect((await request(baseUrl, '/admin', from, ADMIN.password)).status).toBe(429);
      expect((await request(baseUrl, '/admin', from, WRONG_PASSWORD, user)).status).toBe(429);
      process.kill('SIGTERM');
      await process.exited;
    }
  }, 60_000);

  it('logs each failed login at warn with the address, its /64, the user tried and the counts, and the block once', () => {
    const lines = loginLines(json);
    expect(lines.map(({ level, msg, clientAddress, user: tried, failures }) => ({ level, msg, clientAddress, user: tried, failures }))).toEqual([
      { level: 'warn', msg: 'admin login failed', clientAddress: address, user, failures: 1 },
      { level: 'warn', msg: 'admin login failed', clientAddress: address, user, failures: 2 },
      { level: 'warn', msg: 'admin login failed', clientAddress: address, user, failures: 3 },
      { level: 'warn', msg: 'admin logins blocked', clientAddress: address, user, failures: 3 },
    ]);
    const network = `${address.slice(0, -'::1'.length)}::/64`;
    expect(lines.map((line) => [line.network, line.networkFailures])).toEqual([
      [network, 1],
      [network, 2],
      [network, 3],
      [network, 3],
    ]);
    expect(lines[3].blocked).toBe(`${address},${network}`);
    expect(lines[3].blockSeconds).toBe(300);
    expect(lines.every((line) => typeof line.requestId === 'string')).toBe(true);
  });

  it('says the same in text lines', () => {
    const lines = text
      .logs()
      .split('\n')
      .filter((line) => line.includes('AdminLogin'));
    expect(lines).toHaveLength(4);
    const network = `${textAddress.slice(0, -'::1'.length)}::/64`;
    expect(lines[0]).toMatch(
      new RegExp(`WARN .*Failed admin login from ${textAddress} as user "mallory" \\(failure 1 of 3 allowed within 300 s; 1 from ${network}\\)`),
    );
    expect(lines[3]).toMatch(new RegExp(`WARN .*Admin logins from ${textAddress} and ${network} are refused for 300 s after 3 failures`));
  });

  it('never logs the password tried or the Authorization header', () => {
    for (const output of [json.logs(), text.logs()]) {
      expect(output).toContain('mallory');
      expect(output).not.toContain(WRONG_PASSWORD);
      expect(output).not.toContain(basic(WRONG_PASSWORD, user).slice('Basic '.length));
      expect(output).not.toContain(basic(ADMIN.password).slice('Basic '.length));
    }
  });
});

describe('Failed admin logins while Redis cannot be reached', () => {
  let server: Server;
  let limiter: AdminLoginLimiter;
  let baseUrl: string;
  let warnings: string[];

  beforeAll(async () => {
    // A Redis URL where nothing listens: the limiter cannot count, so it lets logins be checked unlimited.
    const config = loadConfig({ ...process.env, REDIS_URL: `redis://127.0.0.1:${await freePort()}`, LOG_FORMAT: 'text' });
    warnings = [];
    jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => void warnings.push(String(message)));
    limiter = new AdminLoginLimiter(config);
    await limiter.onModuleInit();
    const app = express();
    app.set('trust proxy', 'loopback');
    app.use('/admin', new AdminAuthMiddleware(config, limiter).handler(), (_req, res) => void res.send('ok'));
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    limiter?.onApplicationShutdown();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('still checks the password but refuses nobody, and warns once', async () => {
    const address = newAddress();
    for (let i = 0; i < 12; i += 1) expect((await request(baseUrl, '/admin', address, WRONG_PASSWORD)).status).toBe(401);
    expect((await request(baseUrl, '/admin', address, ADMIN.password)).status).toBe(200);
    expect((await request(baseUrl, '/admin', address)).status).toBe(401);

    const unreachable = warnings.filter((line) => line.startsWith('Cannot reach Redis to count failed admin logins'));
    expect(unreachable).toHaveLength(1);
    // The failures themselves are still logged, without a count.
    expect(warnings.filter((line) => line === `Failed admin login from ${address} as user "admin"`)).toHaveLength(12);
  });
});
