import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  ActionResource,
  CreateActionRequest,
  GRPC_STATUS,
  PunctualClient,
  RPC_PATTERNS,
  SignedGrpc,
  UntypedActionTypes,
  signedMessage,
} from '@punctual/client';
import { OTHER_TENANT_KEY, TEST_KEY, TcpProxy } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { API_READY, AppProcess } from './support/app-process';
import { notificationExample, storedCounts } from './support/fixtures';
import { freePort } from './support/free-port';
import { RawGrpc } from './support/raw-grpc';
import { refusal } from './support/refusal';

// Contract §17: sibling apps call every message pattern as a method of punctual.v1.Punctual, through
// the handlers of the NestJS transport, against any number of API processes behind one address.
jest.setTimeout(300_000);

const ROOT = join(__dirname, '..');
const REMINDERS = join(ROOT, 'examples', 'reminders-grpc', 'src', 'main.ts');
const MAX_ACTIVE_ACTIONS = 5;
const run = promisify(execFile);

describe('Sibling apps over gRPC (contract §17)', () => {
  let api: ApiTestApp;
  const apis: AppProcess[] = [];
  const grpcPorts: number[] = [];
  let balancer: TcpProxy;
  let address: string;

  let tls: { dir: string; ca: Buffer; address: string };

  beforeAll(async () => {
    // In this process: the database, emptied, HTTP reads of what the gRPC calls did, and gRPC over TLS.
    const dir = await mkdtemp(join(tmpdir(), 'punctual-grpc-tls-'));
    const [cert, key] = [join(dir, 'cert.pem'), join(dir, 'key.pem')];
    const subject = ['-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost'];
    await run('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-keyout',
      key,
      '-out',
      cert,
      ...subject,
    ]);
    const tlsPort = await freePort();
    // Node refuses an IP address as a TLS server name: a TLS client names the host its certificate names.
    tls = { dir, ca: await readFile(cert), address: `localhost:${tlsPort}` };
    api = await startCleanApiApp(undefined, { GRPC_URL: `127.0.0.1:${tlsPort}`, GRPC_TLS_CERT_FILE: cert, GRPC_TLS_KEY_FILE: key });
    for (let i = 0; i < 2; i++) {
      const grpcPort = Number(await freePort());
      const env = { PORT: await freePort(), GRPC_URL: `127.0.0.1:${grpcPort}`, TENANT_MAX_ACTIVE_ACTIONS: String(MAX_ACTIVE_ACTIONS) };
      apis.push(new AppProcess('api', env));
      grpcPorts.push(grpcPort);
    }
    // Compiling the API's sources takes a while on a loaded machine: both at once.
    await Promise.all(apis.map((child) => child.ready(API_READY, 150_000)));
    // One address in front of both, handing connections to each in turn, as a load balancer would.
    balancer = await new TcpProxy('127.0.0.1', grpcPorts).start();
    address = `127.0.0.1:${balancer.port}`;
  });
  afterAll(async () => {
    for (const child of apis) child.kill('SIGKILL');
    await balancer?.stop();
    await api?.close();
    if (tls) await rm(tls.dir, { recursive: true, force: true });
  });

  /** One command of the example reminders app, in a process of its own (so a connection of its own): its exit code and JSON answer. */
  async function reminders(...args: string[]): Promise<{ code: number; answer: Record<string, unknown> }> {
    const preload = ['-r', require.resolve('ts-node/register/transpile-only'), '-r', require.resolve('tsconfig-paths/register')];
    const env = {
      ...process.env,
      TS_NODE_PROJECT: join(ROOT, 'tsconfig.json'),
      PUNCTUAL_GRPC_ADDRESS: address,
      PUNCTUAL_KEY_ID: TEST_KEY.keyId,
      PUNCTUAL_SECRET: TEST_KEY.secret,
    };
    const finished = await run(process.execPath, [...preload, REMINDERS, ...args], { cwd: ROOT, env, timeout: 60_000 }).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout || error.stderr }),
    );
    return { code: finished.code, answer: JSON.parse(finished.stdout.trim().split('\n').at(-1)!) as Record<string, unknown> };
  }

  const httpRead = async (id: string) => (await api.client.get(`/actions/${id}`)).body as ActionResource;

  it('a sibling app process schedules, reads, lists, pauses and cancels through two API processes', async () => {
    const firstAt = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await reminders('schedule', 'inv-1', firstAt);
    expect(scheduled).toEqual({
      code: 0,
      answer: expect.objectContaining({ status: 'PENDING', executionTime: firstAt, metadata: { app: 'reminders', invoiceId: 'inv-1' } }),
    });
    const id = scheduled.answer.id as string;
    // The same invoice again, on the other API process: its Idempotency-Key finds the first action.
    expect((await reminders('schedule', 'inv-1', firstAt)).answer).toEqual(scheduled.answer);
    expect((await reminders('show', id)).answer).toEqual(await httpRead(id));
    expect((await reminders('upcoming')).answer).toEqual({ items: [await httpRead(id)], nextCursor: null });

    const held = await reminders('hold', id);
    expect(held.answer).toMatchObject({ id, paused: true, status: 'PENDING' });
    const stopped = await reminders('stop', id);
    expect(stopped.answer).toMatchObject({ id, status: 'CANCELED' });
    expect(await httpRead(id)).toEqual(stopped.answer);
    const history = (await api.client.get(`/actions/${id}/history`)).body as { note: string | null }[];
    expect(history.map((entry) => entry.note)).toEqual(['created', 'paused: invoice disputed', 'canceled: invoice paid']);

    // A refusal reaches the app as Punctual's error body: the action is final.
    expect(await reminders('hold', id)).toEqual({ code: 2, answer: expect.objectContaining({ statusCode: 409 }) });
    // Each process had a connection of its own, handed to the API processes in turn: both served.
    expect(balancer.connectionsPerTarget.every((count) => count >= 3)).toBe(true);
  });

  it('refuses forged and replayed messages with UNAUTHENTICATED, changing nothing', async () => {
    const id = ((await api.client.post('/actions', notificationExample())).body as ActionResource).id;
    const before = { counts: await storedCounts(api.db), action: await httpRead(id) };
    const [first, second] = grpcPorts.map((port) => new RawGrpc(`127.0.0.1:${port}`));
    try {
      const pause = signedMessage(TEST_KEY, RPC_PATTERNS.pause, JSON.stringify({ id }));
      const tampered = { ...pause, body: JSON.stringify({ id, note: 'changed after signing' }) };
      const wrongSecret = signedMessage(
        { keyId: OTHER_TENANT_KEY.keyId, secret: 'not-the-secret-of-team-b' },
        RPC_PATTERNS.cancel,
        JSON.stringify({ id }),
      );
      const otherPattern = signedMessage(TEST_KEY, RPC_PATTERNS.get, JSON.stringify({ id }));
      for (const [method, message] of [
        ['Pause', tampered],
        ['Cancel', wrongSecret],
        ['Cancel', otherPattern],
      ] as const) {
        const outcome = await first.call(method, message);
        expect({ method, code: outcome.code, body: JSON.parse(outcome.details) }).toEqual({
          method,
          code: GRPC_STATUS.UNAUTHENTICATED,
          body: expect.objectContaining({ statusCode: 401 }),
        });
      }
      expect(await storedCounts(api.db)).toEqual(before.counts);
      expect(await httpRead(id)).toEqual(before.action);

      // A create accepted by one API process, replayed to the other: refused, and no second action.
      const create = signedMessage(TEST_KEY, RPC_PATTERNS.create, JSON.stringify(notificationExample()));
      expect((await first.call('Create', create)).code).toBe(GRPC_STATUS.OK);
      const afterCreate = await storedCounts(api.db);
      const replayed = await second.call('Create', create);
      expect({ code: replayed.code, body: JSON.parse(replayed.details) }).toEqual({
        code: GRPC_STATUS.UNAUTHENTICATED,
        body: expect.objectContaining({ statusCode: 401 }),
      });
      expect(await storedCounts(api.db)).toEqual(afterCreate);
    } finally {
      first.close();
      second.close();
    }
  });

  it("answers another tenant's action id NOT_FOUND, as an id that does not exist", async () => {
    const id = ((await api.client.post('/actions', notificationExample())).body as ActionResource).id;
    const before = await httpRead(id);
    const raw = new RawGrpc(address);
    const otherTenant = PunctualClient.overGrpc<UntypedActionTypes>({ address, ...OTHER_TENANT_KEY });
    try {
      for (const method of ['Get', 'Cancel', 'Pause', 'Delete']) {
        const pattern = Object.values(RPC_PATTERNS).find((p) => p.endsWith(`.${method.toLowerCase()}`))!;
        const outcome = await raw.call(method, signedMessage(OTHER_TENANT_KEY, pattern, JSON.stringify({ id })));
        expect({ method, code: outcome.code, body: JSON.parse(outcome.details) }).toEqual({
          method,
          code: GRPC_STATUS.NOT_FOUND,
          body: expect.objectContaining({ statusCode: 404 }),
        });
      }
      expect((await refusal(otherTenant.get(id))).statusCode).toBe(404);
      expect(await httpRead(id)).toEqual(before);
    } finally {
      raw.close();
      await otherTenant.close();
    }
  });

  it('refuses a create over the quota with RESOURCE_EXHAUSTED and retry-after, storing nothing', async () => {
    const team = PunctualClient.overGrpc<UntypedActionTypes>({ address, ...OTHER_TENANT_KEY });
    const raw = new RawGrpc(address);
    try {
      const body = notificationExample() as CreateActionRequest;
      for (let i = 0; i < MAX_ACTIVE_ACTIONS; i++) await team.create(body);
      const before = await storedCounts(api.db);
      const refused = await refusal(team.create(body));
      expect(refused).toMatchObject({ statusCode: 429, retryAfterSeconds: expect.any(Number) });
      const outcome = await raw.call('Create', signedMessage(OTHER_TENANT_KEY, RPC_PATTERNS.create, JSON.stringify(notificationExample())));
      expect(outcome.code).toBe(GRPC_STATUS.RESOURCE_EXHAUSTED);
      expect(JSON.parse(outcome.details)).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
      expect(Number(outcome.metadata.get('retry-after')[0])).toBeGreaterThanOrEqual(1);
      expect(await storedCounts(api.db)).toEqual(before);
    } finally {
      raw.close();
      await team.close();
    }
  });

  it('refuses malformed, oversized and unknown calls without storing anything', async () => {
    const raw = new RawGrpc(address);
    const signed = (pattern: string, body: string) => signedMessage(TEST_KEY, pattern, body);
    const before = await storedCounts(api.db);
    try {
      const malformed = await raw.call('Create', signed(RPC_PATTERNS.create, '{"action": "SEND_NOTIFICATION",'));
      expect({ code: malformed.code, body: JSON.parse(malformed.details) }).toEqual({
        code: GRPC_STATUS.INVALID_ARGUMENT,
        body: expect.objectContaining({ statusCode: 400 }),
      });
      const notAMessage = await raw.call('Create', Buffer.from([0xff, 0xff, 0xff, 0xff]));
      expect({ code: notAMessage.code, body: JSON.parse(notAMessage.details) }).toEqual({
        code: GRPC_STATUS.INVALID_ARGUMENT,
        body: expect.objectContaining({ statusCode: 400 }),
      });

      // Over the body limit of one action (64 KiB): the same 413 as HTTP, after the signature check.
      const large = JSON.stringify(notificationExample(3_600_000, { metadata: { pad: 'x'.repeat(70 * 1024) } }));
      const tooLarge = await raw.call('Create', signed(RPC_PATTERNS.create, large));
      expect({ code: tooLarge.code, body: JSON.parse(tooLarge.details) }).toEqual({
        code: GRPC_STATUS.RESOURCE_EXHAUSTED,
        body: expect.objectContaining({ statusCode: 413 }),
      });
      // Over the largest body (a batch's 1 MiB) with room for headers: refused by gRPC before it is read.
      const huge = await raw.call('CreateBatch', signed(RPC_PATTERNS.createBatch, 'x'.repeat(1100 * 1024)));
      expect(huge.code).toBe(GRPC_STATUS.RESOURCE_EXHAUSTED);
      // The typed client reports it as HTTP would: 413.
      const client = new SignedGrpc({ address, ...TEST_KEY });
      expect((await refusal(client.send(RPC_PATTERNS.createBatch, { items: [{ pad: 'x'.repeat(1100 * 1024) }] }))).statusCode).toBe(413);
      await client.close();

      expect((await raw.call('Explode', signed(RPC_PATTERNS.create, '{}'))).code).toBe(GRPC_STATUS.UNIMPLEMENTED);
      expect(await storedCounts(api.db)).toEqual(before);
    } finally {
      raw.close();
    }
  });

  it('serves gRPC over TLS alone when given a certificate and key', async () => {
    const overTls = PunctualClient.overGrpc({ address: tls.address, ...TEST_KEY, tls: { ca: tls.ca } });
    const plaintext = PunctualClient.overGrpc({ address: tls.address, ...TEST_KEY, timeoutMs: 5_000 });
    try {
      expect(await overTls.stats()).toEqual((await api.client.get('/actions/stats')).body);
      expect((await refusal(plaintext.stats())).statusCode).toBe(503);
    } finally {
      await overTls.close();
      await plaintext.close();
    }
  });

  it('an API process stops cleanly on SIGTERM with gRPC connections open', async () => {
    const client = PunctualClient.overGrpc({ address: `127.0.0.1:${grpcPorts[1]}`, ...TEST_KEY });
    try {
      expect(await client.stats()).toMatchObject({ total: expect.any(Number) });
      const stopping = apis[1];
      stopping.kill('SIGTERM');
      expect(await stopping.exited).toEqual({ code: 0, signal: null });
    } finally {
      await client.close();
    }
  });
});
