import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { ActionResource, CreateActionBody, PunctualClient, PunctualError } from '@punctual/client';
import { HttpReceiver, TEST_KEY, waitUntil } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { API_READY, AppProcess, WORKER_READY } from './support/app-process';
import { freePort } from './support/free-port';
import { storedCounts } from './support/fixtures';
import {
  command,
  copyProject,
  installProject,
  installedCopies,
  mustRun,
  npmInstall,
  npmLs,
  packPackages,
  packedManifest,
  rootVersionOf,
} from './support/packed-project';

// Contract §15: the packed packages work in projects outside this repository, which see nothing
// of it but the tarballs and what npm installs beside them.
jest.setTimeout(600_000);

const USE_CLIENT = `
import { ActionResource, PunctualClient, PunctualError, UntypedActionTypes } from '@punctual/client';

async function main(): Promise<void> {
  const [baseUrl, transport, keyId, secret, grpcAddress] = process.argv.slice(2);
  const http = PunctualClient.overHttp({ baseUrl, keyId, secret });
  // Untyped, to send a type the server does not know.
  const rpc = PunctualClient.overRpc<UntypedActionTypes>({ transport, keyId, secret });
  // gRPC loads the punctual.proto packed with the client.
  const grpc = PunctualClient.overGrpc({ address: grpcAddress, keyId, secret });
  const created: ActionResource = await http.create({
    action: 'HTTP_REQUEST',
    executionTime: Date.now() + 3_600_000,
    data: { url: 'https://example.com/hook', method: 'POST' },
  });
  const readOverRpc = await rpc.get(created.id);
  const readOverGrpc = await grpc.get(created.id);
  const grpcRefusal = await grpc.get('not-a-uuid').then(
    () => null,
    (error: unknown) => (error instanceof PunctualError ? error.statusCode : String(error)),
  );
  await grpc.close();
  const webhook = await http.webhooks.create({ url: 'https://example.com/events', events: ['action.failed'] });
  const webhooks = await http.webhooks.list();
  const refusal = await rpc.create({ action: 'NOT_A_TYPE', executionTime: Date.now() + 3_600_000, data: {} }).then(
    () => null,
    (error: unknown) => (error instanceof PunctualError ? error.statusCode : String(error)),
  );
  await rpc.close();
  console.log(JSON.stringify({ created, readOverRpc, readOverGrpc, grpcRefusal, secret: webhook.secret, webhooks: webhooks.items.map((w) => w.id), refusal }));
}

main().catch((error: Error) => {
  console.error(error.stack);
  process.exit(1);
});
`;

const MISMATCHED_FULFILLMENT = `
import { ActionFulfillment, Fulfillment, FulfillmentResult } from '@punctual/sdk';
import { JOURNAL_ENTRY } from './journal-entry';

class OtherData {
  url: string;
}

@Fulfillment(JOURNAL_ENTRY)
export class MismatchedFulfillment implements ActionFulfillment<OtherData> {
  async fulfill(data: OtherData): Promise<FulfillmentResult> {
    return { note: data.url };
  }
}
`;

/** The example project's own types, as a producer may declare them: an interface of each type's data by name. */
interface JournalActionTypes {
  JOURNAL_ENTRY: { text: string };
  SIGNED_PING: { url: string; text: string };
}

/** Typed creates of the example project's types and of built-in ones, through its map made from the definitions: they compile. */
const TYPED_CREATES = `
import { PunctualClient } from '@punctual/client';
import { JournalActionTypes } from './action-types';

const punctual = PunctualClient.overHttp<JournalActionTypes>({ baseUrl: 'http://127.0.0.1:9', keyId: 'k', secret: 's' });

export const calls = [
  // The data class's method (lineFor) is not part of the data.
  () => punctual.create({ action: 'JOURNAL_ENTRY', data: { text: 'one line' } }),
  () => punctual.create({ action: 'SIGNED_PING', executionTime: Date.now(), data: { url: 'https://example.com/ping', text: 'hi' } }),
  () => punctual.create({
    action: 'SEND_NOTIFICATION',
    data: { notificationType: 'EMAIL', email: 'ada@example.com', templateType: 'PAYMENT_RECEIVED_NOTIFICATION', subject: 'Paid', name: 'Ada' },
  }),
  () => punctual.createBatch([
    { action: 'HTTP_REQUEST', data: { url: 'https://example.com/hook', method: 'POST', body: { id: 1 } } },
    { action: 'MESSAGE', cron: '0 9 * * *', repeat: true, data: { pattern: 'journal.daily', payload: null } },
  ]),
  () => punctual.preview({ action: 'JOURNAL_ENTRY', cron: '0 9 * * *', repeat: true, data: { text: 'daily' } }, 3),
  () => punctual.update<'JOURNAL_ENTRY'>('an-id', { data: { text: 'changed' } }),
  () => punctual.list({ action: 'SIGNED_PING' }),
];
`;

/** Files that must not compile, and what the compiler says of each. */
const MISTYPED_CREATES: Record<string, { source: string; error: RegExp }> = {
  'wrong-name.ts': {
    source: `
import { PunctualClient } from '@punctual/client';
import { JournalActionTypes } from './action-types';

void PunctualClient.overHttp<JournalActionTypes>({ baseUrl: '', keyId: '', secret: '' }).create({ action: 'JOURNAL_ENTRI', data: { text: 'typo' } });
`,
    error: /wrong-name\.ts.*'"JOURNAL_ENTRI"' is not assignable to type/s,
  },
  'wrong-data.ts': {
    source: `
import { PunctualClient } from '@punctual/client';
import { JournalActionTypes } from './action-types';

void PunctualClient.overHttp<JournalActionTypes>({ baseUrl: '', keyId: '', secret: '' }).create({ action: 'JOURNAL_ENTRY', data: { txt: 'typo' } });
`,
    error: /wrong-data\.ts.*'txt' does not exist in type/s,
  },
  'wrong-built-in-data.ts': {
    source: `
import { PunctualClient } from '@punctual/client';

void PunctualClient.overRpc({ transport: '', keyId: '', secret: '' }).create({ action: 'HTTP_REQUEST', data: { url: 'https://example.com', method: 'FETCH' } });
`,
    error: /wrong-built-in-data\.ts.*'"FETCH"' is not assignable to type/s,
  },
};

/** The action once it reached `status`, read through the packed client. */
function untilStatus(punctual: PunctualClient<JournalActionTypes>, id: string, status: string): Promise<ActionResource> {
  return waitUntil(
    `action ${id} to be ${status}`,
    async () => {
      const current = await punctual.get(id);
      return current.status === status ? current : null;
    },
    30_000,
    100,
  );
}

describe('The packed packages, installed in projects outside the repository (contract §15)', () => {
  let work: string;
  let tarballs: Record<string, string>;
  let api: ApiTestApp | undefined;
  const processes: AppProcess[] = [];

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'punctual-packages-'));
    tarballs = await packPackages(join(work, 'tarballs'));
  });
  afterEach(async () => {
    for (const child of processes.splice(0)) {
      child.kill('SIGTERM');
      await child.exited;
    }
    await api?.close();
    api = undefined;
  });
  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('packs the contract, the client, the SDK and the server, each built alone and depending on no other of ours by name', async () => {
    expect(Object.keys(tarballs).sort()).toEqual(['@punctual/client', '@punctual/contract', '@punctual/sdk', '@punctual/server']);
    // A dependency on a @punctual/* name would be looked up in the npm registry whenever its tarball is not installed beside.
    for (const tarball of Object.values(tarballs)) {
      const manifest = await packedManifest(tarball);
      const named = ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies'].flatMap((field) =>
        Object.keys((manifest[field] as Record<string, string> | undefined) ?? {}),
      );
      expect({ tarball, ours: named.filter((name) => name.startsWith('@punctual/')) }).toEqual({ tarball, ours: [] });
    }
    // The gRPC service's definition ships in the contract, and beside the contract compiled into the client and the server.
    const packed = async (name: string) => (await mustRun('tar', ['-tzf', tarballs[name]], work)).split('\n');
    expect(await packed('@punctual/contract')).toContain('package/dist/punctual.proto');
    expect(await packed('@punctual/client')).toContain('package/dist/contract/src/punctual.proto');
    expect(await packed('@punctual/server')).toContain('package/dist/libs/contract/src/punctual.proto');
  });

  it('@punctual/client, installed alone, type-checks against its declarations and speaks HTTP, RPC and gRPC, webhooks included', async () => {
    const project = join(work, 'client-project');
    // Only the client's tarball: the contract it re-exports comes inside it, and no registry is asked for @punctual/contract
    // (npmInstall points the scope at a registry where nothing listens).
    await installProject(
      project,
      {
        dependencies: { '@punctual/client': '0.1.0' },
        devDependencies: { typescript: await rootVersionOf('typescript7'), '@types/node': await rootVersionOf('@types/node') },
      },
      tarballs,
    );
    expect(await readdir(join(project, 'node_modules', '@punctual'))).toEqual(['client']);
    expect(await npmLs(project)).toEqual({ code: 0, problems: [] });
    await writeFile(join(project, 'use-client.ts'), USE_CLIENT);
    const tsc = ['node_modules/typescript/bin/tsc', '--strict', '--target', 'ES2022', '--module', 'commonjs', '--types', 'node', 'use-client.ts'];
    await mustRun(process.execPath, tsc, project);

    const grpcAddress = `127.0.0.1:${await freePort()}`;
    api = await startCleanApiApp(undefined, { RPC_TRANSPORT_URL: process.env.REDIS_URL!, GRPC_URL: grpcAddress });
    const output = await mustRun(
      process.execPath,
      ['use-client.js', api.client.baseUrl, process.env.REDIS_URL!, TEST_KEY.keyId, TEST_KEY.secret, grpcAddress],
      project,
    );
    // The last line: Nest's transport client logs its connection before it.
    const seen = JSON.parse(output.trim().split('\n').at(-1)!) as {
      created: { id: string };
      readOverRpc: unknown;
      readOverGrpc: unknown;
      grpcRefusal: unknown;
      secret: string;
      webhooks: string[];
      refusal: unknown;
    };

    expect(seen.readOverRpc).toEqual(seen.created);
    expect(seen.readOverGrpc).toEqual(seen.created);
    expect(seen.grpcRefusal).toBe(400);
    const stored = await PunctualClient.overHttp({ baseUrl: api.client.baseUrl, ...TEST_KEY }).get(seen.created.id);
    expect(stored).toEqual(seen.created);
    expect(seen.secret).toMatch(/^whsec_/);
    expect(seen.webhooks).toHaveLength(1);
    expect(seen.refusal).toBe(400);

    // The client's command line is installed as punctual, and reads the same API.
    const help = await command('npx', ['--no-install', 'punctual', '--help'], project);
    expect(help).toMatchObject({ code: 0, stdout: expect.stringContaining('Usage: punctual <command>') });
    const cli = ['--no-install', 'punctual', 'get', seen.created.id, '--url', api.client.baseUrl, '--key-id', TEST_KEY.keyId, '--secret', TEST_KEY.secret];
    const read = await command('npx', cli, project);
    expect(read.code).toBe(0);
    expect(JSON.parse(read.stdout)).toEqual(seen.created);

    // A wrong body is refused by the compiler, from the declarations alone.
    await writeFile(
      join(project, 'use-client.ts'),
      `${USE_CLIENT}\nvoid PunctualClient.overHttp({ baseUrl: '', keyId: '', secret: '' }).create({ action: 'HTTP_REQUEST', data: { url: '' }, frequency: 'YEARLY' });\n`,
    );
    const refused = await command(process.execPath, tsc, project);
    expect(refused.code).not.toBe(0);
    expect(refused.output).toMatch(/use-client\.ts.*'"YEARLY"' is not assignable/);
  });

  it('a project adds its own action type with @punctual/sdk and runs it end to end with @punctual/server', async () => {
    const project = join(work, 'journal-action');
    const manifest = await copyProject('examples/journal-action', project);
    await installProject(project, manifest as Parameters<typeof installProject>[1], tarballs);
    // A later, ordinary install of something else keeps the tree whole: nothing the server needs was installed only
    // as another package's optional peer (extraneous, which such an install removes), and npm finds nothing wrong.
    await npmInstall(project, '--save-dev', 'is-number@7.0.0');
    // Nothing else is wrong, but for one thing no package of ours can change: the project's TypeScript 7 is not among
    // the versions @nestjs/swagger 12 (which the server uses) lists as an optional peer.
    const { problems } = await npmLs(project);
    expect(problems.filter((problem) => !/^invalid: typescript@7\.\S+ \S+\/journal-action\/node_modules\/typescript$/.test(problem))).toEqual([]);
    // One ioredis, which BullMQ, Nest's Redis transport, TypeORM's optional peer (ioredis 5) and the server all load.
    const ioredis = await installedCopies(project, 'ioredis');
    expect(Object.keys(ioredis)).toEqual(['node_modules/ioredis']);
    expect(ioredis['node_modules/ioredis']).toMatch(/^5\./);
    // Its creates are typed with a map made from its definitions: the types it names and the data it gives are checked.
    await writeFile(join(project, 'src', 'typed-creates.ts'), TYPED_CREATES);
    await mustRun(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json'], project);
    for (const [file, { source, error }] of Object.entries(MISTYPED_CREATES)) {
      await writeFile(join(project, 'src', file), source);
      const mistyped = await command(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json', '--noEmit'], project);
      expect({ file, failed: mistyped.code !== 0 }).toEqual({ file, failed: true });
      expect(mistyped.output).toMatch(error);
      await rm(join(project, 'src', file));
    }

    // A fulfillment that takes another type's data does not compile.
    await writeFile(join(project, 'src', 'mismatched.fulfillment.ts'), MISMATCHED_FULFILLMENT);
    const mismatched = await command(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json', '--noEmit'], project);
    expect(mismatched.code).not.toBe(0);
    expect(mismatched.output).toMatch(/mismatched\.fulfillment\.ts.*Unable to resolve signature of class decorator/);
    await rm(join(project, 'src', 'mismatched.fulfillment.ts'));

    api = await startCleanApiApp();
    // Without DATABASE_URL in the environment, the migration reads .env as runApi does and names the database it migrated.
    const database = new URL(process.env.DATABASE_URL!);
    const withoutUrl = ['-u', 'DATABASE_URL', process.execPath, 'dist/main.js', 'migrate'];
    await writeFile(join(project, '.env'), `DATABASE_URL=${database.href}\n`);
    expect(await mustRun('env', withoutUrl, project)).toContain(`Database schema of ${database.host}${database.pathname} is up to date`);
    await writeFile(join(project, '.env'), 'DATABASE_URL=localhost/punctual\n');
    const malformed = await command('env', withoutUrl, project);
    expect(malformed.code).toBe(1);
    expect(malformed.output).toContain('DATABASE_URL');
    await rm(join(project, '.env'));
    const journal = join(project, 'journal.txt');
    const port = await freePort();
    const env = { PORT: port, RPC_TRANSPORT_URL: 'off', JOURNAL_FILE: journal };
    processes.push(await new AppProcess('api', env, { cwd: project, nodeArgs: ['dist/main.js', 'api'] }).ready(API_READY));
    processes.push(await new AppProcess('worker', env, { cwd: project, nodeArgs: ['dist/main.js', 'worker'] }).ready(WORKER_READY));
    const punctual = PunctualClient.overHttp<JournalActionTypes>({ baseUrl: `http://127.0.0.1:${port}`, ...TEST_KEY });

    // Its data is checked by the API with the project's schema: a refusal stores nothing.
    const before = await storedCounts(api.db);
    const refusal = await punctual
      .create({ action: 'JOURNAL_ENTRY', executionTime: Date.now(), data: { text: 'two\nlines' } })
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(PunctualError);
    expect((refusal as PunctualError).statusCode).toBe(400);
    expect((refusal as PunctualError).problems).toContain('data.text: text must be a single line');
    expect(await storedCounts(api.db)).toEqual(before);

    const action = await punctual.create({ action: 'JOURNAL_ENTRY', executionTime: Date.now(), data: { text: 'trial ends for account 42' } });
    const done = await untilStatus(punctual, action.id, 'COMPLETED');
    expect(done.retryCount).toBe(0);
    // The line comes from a method of the data class: the fulfillment received an instance of it.
    expect(await readFile(journal, 'utf8')).toBe(`${action.id}:1 trial ends for account 42\n`);
    expect((await punctual.history(action.id)).at(-1)).toMatchObject({ to: 'COMPLETED', note: `journal line ${action.id}:1` });

    // The project's PermanentFulfillmentError (from its own @punctual/sdk) fails the action at once in the server, which
    // carries its own copy of the SDK: a worker without JOURNAL_FILE refuses every entry so.
    const worker = processes.pop()!;
    worker.kill('SIGTERM');
    await worker.exited;
    const noJournal = { ...env, JOURNAL_FILE: undefined };
    processes.push(await new AppProcess('worker', noJournal, { cwd: project, nodeArgs: ['dist/main.js', 'worker'] }).ready(WORKER_READY));
    const refused = await punctual.create({ action: 'JOURNAL_ENTRY', executionTime: Date.now(), data: { text: 'never written' } });
    const failed = await untilStatus(punctual, refused.id, 'FAILED');
    // At its first attempt, although the type allows 3 retries: any other error would have left it PENDING for a retry.
    expect(failed.retryCount).toBe(1);
    expect((await punctual.history(refused.id)).at(-1)).toMatchObject({
      to: 'FAILED',
      attempt: 1,
      note: expect.stringContaining('JOURNAL_FILE is not set'),
    });
    expect(await readFile(journal, 'utf8')).toBe(`${action.id}:1 trial ends for account 42\n`);
  });

  it("a project's own type keeps the outbound rules: @OutboundUrl() at create, the egress-checked client, the tenant's signature and RetryLaterError", async () => {
    const project = join(work, 'signed-ping');
    const manifest = await copyProject('examples/journal-action', project);
    await installProject(project, manifest as Parameters<typeof installProject>[1], tarballs);
    await mustRun(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json'], project);
    const receiver = await new HttpReceiver().start();
    try {
      api = await startCleanApiApp();
      const punctual = await startProjectApps(project);

      // The API judges the project's @OutboundUrl() field against the deployment's egress policy, as it does HTTP_REQUEST's.
      const before = await storedCounts(api.db);
      const metadataAddress: CreateActionBody<JournalActionTypes> = {
        action: 'SIGNED_PING',
        executionTime: Date.now(),
        data: { url: 'http://169.254.169.254/latest', text: 'hi' },
      };
      const refusal = await punctual.create(metadataAddress).catch((error: unknown) => error);
      expect((refusal as PunctualError).statusCode).toBe(400);
      expect((refusal as PunctualError).problems).toContain('data.url: the destination is not allowed (169.254.169.254 is a link-local address)');
      expect(await storedCounts(api.db)).toEqual(before);

      // The first call is answered 429 with Retry-After: 2; the fulfillment asks to be retried then, not after the backoff (50–400 ms here).
      receiver.failNext(1, 429, 'slow down', { 'retry-after': '2' });
      const action = await punctual.create({ action: 'SIGNED_PING', executionTime: Date.now(), data: { url: receiver.url('/ping'), text: 'hello' } });
      await untilStatus(punctual, action.id, 'COMPLETED');
      const calls = receiver.callsTo('/ping');
      expect(calls).toHaveLength(2);
      expect(calls[1].at - calls[0].at).toBeGreaterThanOrEqual(2000);
      const history = await punctual.history(action.id);
      expect(history.find((entry) => entry.from === 'IN_PROGRESS' && entry.to === 'PENDING')).toMatchObject({
        attempt: 1,
        note: 'ping answered 429; retry asked in 2000 ms',
      });

      // Each call is signed with the key that created the action, as HTTP_REQUEST signs: a Standard Webhooks receiver of the tenant verifies it.
      const tenantReceiver = new Webhook(Buffer.from(TEST_KEY.secret, 'utf8').toString('base64'));
      for (const call of calls) {
        expect(call.headers['webhook-id']).toBe(`${action.id}:1`);
        expect(tenantReceiver.verify(call.body, call.headers as Record<string, string>)).toEqual({ text: 'hello' });
      }
      const otherKey = new Webhook(Buffer.from('rotated-secret-9876543210', 'utf8').toString('base64'));
      expect(() => otherKey.verify(calls[0].body, calls[0].headers as Record<string, string>)).toThrow();
    } finally {
      await receiver.stop();
    }
  });

  /** Starts the built project's API and worker on a free port; answers a client of that API. */
  async function startProjectApps(project: string): Promise<PunctualClient<JournalActionTypes>> {
    const port = await freePort();
    const env = { PORT: port, RPC_TRANSPORT_URL: 'off', JOURNAL_FILE: join(project, 'journal.txt') };
    processes.push(await new AppProcess('api', env, { cwd: project, nodeArgs: ['dist/main.js', 'api'] }).ready(API_READY));
    processes.push(await new AppProcess('worker', env, { cwd: project, nodeArgs: ['dist/main.js', 'worker'] }).ready(WORKER_READY));
    return PunctualClient.overHttp<JournalActionTypes>({ baseUrl: `http://127.0.0.1:${port}`, ...TEST_KEY });
  }
});
