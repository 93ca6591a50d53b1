import { signRequest } from '@punctual/contract';
import { HttpReceiver, ROTATED_KEY, TEST_KEY, TestHttp, testHttp, waitUntil } from '@app/testing';
import { API_READY, AppProcess, WORKER_READY } from './support/app-process';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';

/** Values that look like credentials inside actions' own headers: they go to the receiver, never to a log. */
const HEADER_SECRETS = ['hdr-token-7f3a9c2e51', 'bearer-4d1e8b6a0c77', 'bad-value-9e2f1a3b4c'];
const ADMIN = { user: 'admin', password: 'admin-password' };
const WRONG_PASSWORD = 'not-the-admin-password';
const basic = (password: string) => `Basic ${Buffer.from(`${ADMIN.user}:${password}`).toString('base64')}`;

interface LogLine {
  level: string;
  time: string;
  msg: string;
  context: string;
  [field: string]: unknown;
}

/** Real API and worker processes with LOG_FORMAT=json, fed signed traffic, failures and admin logins; then every line they wrote is read. */
describe('JSON logs', () => {
  const receiver = new HttpReceiver();
  let store: ApiTestApp;
  let apiProcess: AppProcess;
  let workerProcess: AppProcess;
  let client: TestHttp;
  let apiLines: LogLine[];
  let workerLines: LogLine[];
  let handSignature: string;
  const ids: { succeeded?: string; failed?: string } = {};

  beforeAll(async () => {
    await receiver.start();
    // Only its database connection is used: the actions are sent to the real API process below.
    store = await startCleanApiApp();
    const env = { LOG_FORMAT: 'json', LOG_LEVEL: 'log', MAX_RETRIES: '1', PORT: String(40000 + Math.floor(Math.random() * 10000)) };
    // Kept from the start, so that afterAll stops them even when one never became ready: left running,
    // their worker (MAX_RETRIES 1, no MESSAGE transports) would take the next specs' jobs.
    apiProcess = new AppProcess('api', env);
    workerProcess = new AppProcess('worker', env);
    await Promise.all([apiProcess.ready(API_READY), workerProcess.ready(WORKER_READY)]);
    client = testHttp(`http://127.0.0.1:${env.PORT}`);

    const call = (path: string) => ({
      action: 'HTTP_REQUEST',
      executionTime: Date.now(),
      data: { url: receiver.url(path), headers: { 'X-Api-Token': HEADER_SECRETS[0], Authorization: `Bearer ${HEADER_SECRETS[1]}` } },
    });
    // A call that fails twice: attempt 1 fails, is retried, and attempt 2 fails for good.
    receiver.failNext(2);
    ids.failed = (await client.post('/actions', call('/fails'))).body.id;
    await waitUntil('both failing calls', () => receiver.callsTo('/fails').length === 2, 15_000);
    const withRequestId = await client.post('/actions', call('/succeeds'), { headers: { 'X-Request-Id': 'caller-request-42' } });
    expect(withRequestId.headers.get('x-request-id')).toBe('caller-request-42');
    ids.succeeded = withRequestId.body.id;
    await client.post('/actions/batch', { items: [call('/batch'), call('/batch')] }, ROTATED_KEY);
    await client.get(`/actions/${ids.succeeded}`);
    // Refused: a header value that cannot be sent, a malformed body, no signature, a wrong secret.
    expect(
      (await client.post('/actions', { ...call('/bad'), data: { url: receiver.url('/bad'), headers: { 'X-Bad': `${HEADER_SECRETS[2]}\n` } } })).status,
    ).toBe(400);
    expect((await client.post('/actions', undefined, { rawBody: '{"action":' })).status).toBe(400);
    expect((await client.get('/actions', { unsigned: true })).status).toBe(401);
    expect((await client.get('/actions', { secret: 'a-wrong-secret-0123456789' })).status).toBe(401);
    // A request signed by hand, so the test knows its signature.
    const signature = signRequest({ ...TEST_KEY, method: 'GET', pathWithQuery: '/actions/stats' });
    expect((await fetch(`${client.baseUrl}/actions/stats`, { headers: signature })).status).toBe(200);
    handSignature = signature['X-Punctual-Signature'];
    // The admin UI with the right and a wrong password.
    expect((await fetch(`${client.baseUrl}/admin/queues/api/queues`, { headers: { authorization: basic(ADMIN.password) } })).status).toBe(200);
    expect((await fetch(`${client.baseUrl}/admin/queues`, { headers: { authorization: basic(WRONG_PASSWORD) } })).status).toBe(401);
    await waitUntil(
      'the worker to finish',
      async () => (await store.db.query(`SELECT count(*)::int AS n FROM actions WHERE status IN ('COMPLETED', 'FAILED')`))[0].n === 4,
      15_000,
    );

    apiProcess.kill('SIGTERM');
    workerProcess.kill('SIGTERM');
    await Promise.all([apiProcess.exited, workerProcess.exited]);
    apiLines = parse(apiProcess.logs());
    workerLines = parse(workerProcess.logs());
    // Two processes compiled as they start, side by side: on a busy machine each can take most of a minute.
  }, 180_000);
  afterAll(async () => {
    for (const child of [apiProcess, workerProcess]) child?.kill('SIGKILL');
    await store.close();
    await receiver.stop();
  });

  /** Every line of output is one JSON object; anything else fails here, naming the line. */
  function parse(output: string): LogLine[] {
    return output
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => {
        try {
          return JSON.parse(line) as LogLine;
        } catch {
          throw new Error(`not a JSON line: ${line}`);
        }
      });
  }

  it('every line of both processes is a JSON object with level, time, msg and context', () => {
    for (const line of [...apiLines, ...workerLines]) {
      expect(line).toEqual(expect.objectContaining({ level: expect.any(String), msg: expect.any(String), context: expect.any(String) }));
      expect(new Date(line.time).toISOString()).toBe(line.time);
    }
    expect(apiLines.length).toBeGreaterThan(10);
    // Its startup (Nest's module lines are at debug) and the attempts' lines.
    expect(workerLines.length).toBeGreaterThan(5);
  });

  it('no line holds an API secret, the admin password, a basic-auth header, a signature or an action header value', () => {
    const output = apiProcess.logs() + workerProcess.logs();
    const forbidden = [
      TEST_KEY.secret,
      ROTATED_KEY.secret,
      ADMIN.password,
      WRONG_PASSWORD,
      basic(ADMIN.password).slice(6),
      basic(WRONG_PASSWORD).slice(6),
      ...HEADER_SECRETS,
      handSignature,
    ];
    for (const secret of forbidden) expect(output).not.toContain(secret);
    expect(receiver.callsTo('/succeeds')[0].headers['x-api-token']).toBe(HEADER_SECRETS[0]);
  });

  it('the API writes one access line per request: method, route, status, duration, key id and request id', () => {
    const access = apiLines.filter((line) => line.context === 'Http');
    expect(access.map((line) => [line.method, line.route, line.status, line.keyId].map(String).join(' '))).toEqual([
      'POST /actions 201 test-key',
      'POST /actions 201 test-key',
      'POST /actions/batch 201 rotated-key',
      'GET /actions/:id 200 test-key',
      'POST /actions 400 test-key',
      'POST /actions 400 test-key',
      'GET /actions 401 null',
      'GET /actions 401 null',
      'GET /actions/stats 200 test-key',
      'GET /admin/queues/api/queues 200 null',
      'GET /admin/queues/* 401 null',
    ]);
    for (const line of access) {
      expect(line).toMatchObject({ level: 'info', msg: 'request completed', durationMs: expect.any(Number), requestId: expect.any(String) });
    }
    expect(new Set(access.map((line) => line.requestId)).size).toBe(access.length);
    expect(access[1].requestId).toBe('caller-request-42');
  });

  it("the worker's lines about an attempt carry the action id, occurrence and attempt", () => {
    const failures = workerLines.filter((line) => line.context === 'ActionProcessor' && line.actionId === ids.failed);
    expect(failures.map((line) => [line.level, line.occurrence, line.attempt])).toEqual([
      ['warn', 1, 1],
      ['warn', 1, 2],
    ]);
    expect(failures[0].msg).toMatch(/^HTTP_REQUEST .* attempt 1 failed: HTTP 500/);
  });
});
