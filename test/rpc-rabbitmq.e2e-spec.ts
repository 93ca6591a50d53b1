import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { randomUUID } from 'node:crypto';
import { Channel, ChannelModel, connect } from 'amqplib';
import { CreateActionRequest, PunctualClient, RPC_PATTERNS, RpcMessage, UntypedActionTypes, signedMessage } from '@punctual/client';
import { waitUntil } from '@app/testing';
import { API_READY, AppProcess } from './support/app-process';
import { RABBITMQ_USERS, RabbitUser, deleteQueues, rabbitUrlAs } from './support/brokers';
import { notificationExample } from './support/fixtures';
import { freePort } from './support/free-port';
import { refusal } from './support/refusal';
import { storedActionsOf } from './support/stored-actions';

const KEY_A = { keyId: 'team-a-rmq-key', secret: 'team-a-rmq-secret-0123456789' };
const KEY_B = { keyId: 'team-b-rmq-key', secret: 'team-b-rmq-secret-0123456789' };
/** This run's own queue on the tenants' virtual host, so that no other run's API takes its requests. */
const QUEUE = `punctual-test-${randomUUID().slice(0, 8)}`;
const VHOST = 'punctual-tenants';
const CREATES = 200;

const action = (run: string) => ({ ...notificationExample(3_600_000), metadata: { run } }) as CreateActionRequest;

/** Requests sent by hand as `user`, and every reply each got on its direct reply-to, by request id. */
class RawRabbit {
  readonly replies = new Map<string, { response?: unknown; err?: { statusCode?: number; message?: unknown } }[]>();

  private constructor(
    readonly connection: ChannelModel,
    private readonly channel: Channel,
  ) {}

  static async as(user: RabbitUser): Promise<RawRabbit> {
    const connection = await connect(rabbitUrlAs(user));
    const channel = await connection.createChannel();
    const raw = new RawRabbit(connection, channel);
    await channel.consume(
      'amq.rabbitmq.reply-to',
      (msg) => {
        // A reply names its request by the message's correlation id.
        const id = String(msg!.properties.correlationId);
        raw.replies.set(id, [
          ...(raw.replies.get(id) ?? []),
          JSON.parse(msg!.content.toString()) as { response?: unknown; err?: { statusCode?: number } },
        ]);
      },
      { noAck: true },
    );
    return raw;
  }

  /** Publishes a NestJS request packet; returns its id. */
  send(pattern: string, data: unknown, replyTo = 'amq.rabbitmq.reply-to'): string {
    const id = randomUUID();
    this.channel.sendToQueue(QUEUE, Buffer.from(JSON.stringify({ pattern, data, id })), { replyTo, correlationId: id });
    return id;
  }

  sendRaw(content: string): void {
    this.channel.sendToQueue(QUEUE, Buffer.from(content), { replyTo: 'amq.rabbitmq.reply-to', correlationId: randomUUID() });
  }

  async reply(id: string) {
    return (await waitUntil(`the reply to ${id}`, () => this.replies.get(id), 20_000))[0];
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}

/** What RabbitMQ holds of the queue: messages waiting, and delivered to an API but not yet acknowledged. */
async function queueState(): Promise<{ ready: number; unacked: number; consumers: number }> {
  // Not execFileSync: a blocked event loop misses the heartbeats of the spec's own connections.
  const { stdout: out } = await promisify(execFile)(
    'rabbitmqctl',
    ['-q', 'list_queues', '-p', VHOST, 'name', 'messages_ready', 'messages_unacknowledged', 'consumers'],
    {
      encoding: 'utf8',
    },
  );
  const row = out
    .split('\n')
    .map((line) => line.split('\t'))
    .find(([name]) => name === QUEUE);
  if (!row) throw new Error(`queue ${QUEUE} not found in ${out}`);
  return { ready: Number(row[1]), unacked: Number(row[2]), consumers: Number(row[3]) };
}

/** Every request taken was answered and acknowledged, and nothing waits. */
const settled = () =>
  waitUntil(
    'every request to be acknowledged',
    async () => JSON.stringify(await queueState()) === JSON.stringify({ ready: 0, unacked: 0, consumers: 2 }),
    20_000,
  );

describe('RPC on RabbitMQ: two API processes, one durable queue, a user per tenant (contract §7, §16)', () => {
  const apis: AppProcess[] = [];
  let a: PunctualClient<UntypedActionTypes>;
  let b: PunctualClient<UntypedActionTypes>;
  let rawA: RawRabbit;
  let rawB: RawRabbit;

  beforeAll(async () => {
    const env = {
      RPC_TRANSPORT_URL: rabbitUrlAs(RABBITMQ_USERS.punctual, `?queue=${QUEUE}`),
      API_KEYS: `${KEY_A.keyId}:${KEY_A.secret}:team-a,${KEY_B.keyId}:${KEY_B.secret}:team-b`,
    };
    for (let i = 0; i < 2; i++) apis.push(new AppProcess('api', { ...env, PORT: await freePort() }));
    await Promise.all(apis.map((api) => api.ready(API_READY, 90_000)));
    a = PunctualClient.overRpc<UntypedActionTypes>({ transport: rabbitUrlAs(RABBITMQ_USERS.teamA, `?queue=${QUEUE}`), ...KEY_A, timeoutMs: 30_000 });
    b = PunctualClient.overRpc<UntypedActionTypes>({ transport: rabbitUrlAs(RABBITMQ_USERS.teamB, `?queue=${QUEUE}`), ...KEY_B, timeoutMs: 30_000 });
    rawA = await RawRabbit.as(RABBITMQ_USERS.teamA);
    rawB = await RawRabbit.as(RABBITMQ_USERS.teamB);
  }, 120_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await rawA?.close();
    await rawB?.close();
    for (const api of apis) api.kill('SIGKILL');
    await deleteQueues(rabbitUrlAs(RABBITMQ_USERS.punctual), [QUEUE]);
  });

  it(`${CREATES} creates through the typed client, sent at once: every one answered, each action stored once, both processes consuming`, async () => {
    const run = randomUUID();
    const created = await Promise.all(Array.from({ length: CREATES }, () => a.create(action(run))));
    expect(new Set(created.map((item) => item.id)).size).toBe(CREATES);
    expect(await storedActionsOf(run)).toBe(CREATES);
    await settled();
  }, 120_000);

  it('each request answered exactly once, by one of the two processes: replies counted on the wire', async () => {
    const run = randomUUID();
    const ids = Array.from({ length: 50 }, () => rawA.send(RPC_PATTERNS.create, signedMessage(KEY_A, RPC_PATTERNS.create, JSON.stringify(action(run)))));
    await waitUntil('every reply', () => ids.every((id) => rawA.replies.has(id)), 30_000);
    // Once acknowledged, a request has had its only reply sent; later replies on the same connection prove earlier ones arrived.
    await settled();
    const later = Array.from({ length: 4 }, () => rawA.send(RPC_PATTERNS.stats, signedMessage(KEY_A, RPC_PATTERNS.stats, '{}')));
    for (const id of later) await rawA.reply(id);
    expect(ids.map((id) => rawA.replies.get(id)!.length)).toEqual(ids.map(() => 1));
    expect(ids.filter((id) => rawA.replies.get(id)![0].err !== undefined)).toEqual([]);
    expect(await storedActionsOf(run)).toBe(50);
  }, 60_000);

  it('a forged or replayed message changes nothing: 401, nothing stored', async () => {
    const run = randomUUID();
    const body = JSON.stringify(action(run));
    const forged = await rawB.reply(
      rawB.send(RPC_PATTERNS.create, signedMessage({ keyId: KEY_A.keyId, secret: 'not-team-a-secret-0123456789' }, RPC_PATTERNS.create, body)),
    );
    expect(forged.err?.statusCode).toBe(401);
    const message: RpcMessage = signedMessage(KEY_A, RPC_PATTERNS.create, body);
    expect((await rawA.reply(rawA.send(RPC_PATTERNS.create, message))).response).toMatchObject({ metadata: { run } });
    const replayed = await rawB.reply(rawB.send(RPC_PATTERNS.create, message));
    expect(replayed.err?.statusCode).toBe(401);
    expect(await storedActionsOf(run)).toBe(1);
  });

  it('each tenant sees only its own actions through its own RabbitMQ user', async () => {
    const ofA = await a.create(action(randomUUID()));
    expect(await a.get(ofA.id)).toEqual(ofA);
    expect((await refusal(b.get(ofA.id))).statusCode).toBe(404);
  });

  it("tenant B can neither read, take, purge nor delete the queue of everyone's requests", async () => {
    for (const operation of [
      (channel: Channel) => channel.consume(QUEUE, () => undefined),
      (channel: Channel) => channel.purgeQueue(QUEUE),
      (channel: Channel) => channel.deleteQueue(QUEUE),
      (channel: Channel) => channel.assertQueue(QUEUE, { durable: true }),
    ]) {
      const channel = await rawB.connection.createChannel();
      channel.on('error', () => undefined);
      await expect(operation(channel)).rejects.toThrow(/ACCESS_REFUSED - access to queue/);
    }
    expect((await queueState()).consumers).toBe(2);
  });

  it('a request asking for its reply in a named queue, or that is not a NestJS packet, is dropped: nothing runs, and the API goes on', async () => {
    const run = randomUUID();
    rawB.send(RPC_PATTERNS.create, signedMessage(KEY_B, RPC_PATTERNS.create, JSON.stringify(action(run))), QUEUE);
    rawB.sendRaw('not json at all');
    await waitUntil(
      'the drop to be logged',
      () => apis.some((api) => api.logs().includes(`Dropped a request that asked for its reply in queue "${QUEUE}"`)),
      20_000,
    );
    await settled();
    expect(await storedActionsOf(run)).toBe(0);
    expect((await b.stats()).total).toEqual(expect.any(Number));
  });
});
