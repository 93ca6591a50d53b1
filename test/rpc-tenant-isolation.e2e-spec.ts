import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { NatsConnection, PermissionViolationError, connect } from '@nats-io/transport-node';
import Redis from 'ioredis';
import { ActionResource, CreateActionRequest, PunctualClient, RPC_PATTERNS, UntypedActionTypes, signedMessage } from '@punctual/client';
import { PunctualMetrics } from '@app/observability';
import { Scrape, waitUntil } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { notificationExample, storedCounts } from './support/fixtures';
import { NATS_TENANTS_URL, NATS_USERS, NatsUser, natsUrlAs } from './support/nats';
import { refusal } from './support/refusal';

const KEY_A = { keyId: 'team-a-key', secret: 'team-a-secret-0123456789' };
const KEY_B = { keyId: 'team-b-key', secret: 'team-b-secret-0123456789' };

/** A tenant's typed client, holding only that tenant's NATS user and its API key. */
function tenantClient(user: NatsUser, key: { keyId: string; secret: string }): PunctualClient<UntypedActionTypes> {
  return PunctualClient.overRpc<UntypedActionTypes>({ transport: natsUrlAs(user), inboxPrefix: user.inboxPrefix, ...key, timeoutMs: 10_000 });
}

/** A raw NATS connection as `user`, and every permission the server refused it, as they arrive. */
async function rawConnection(user: NatsUser): Promise<{ nc: NatsConnection; refused: PermissionViolationError[] }> {
  const { servers, ...credentials } = { servers: NATS_TENANTS_URL, ...user };
  const nc = await connect({ servers, ...credentials });
  const refused: PermissionViolationError[] = [];
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === 'error' && status.error instanceof PermissionViolationError) refused.push(status.error);
    }
  })();
  return { nc, refused };
}

/** Subscribes and resolves with how the server closed the subscription: a refusal names the subject (and queue). */
async function subscriptionRefusal(nc: NatsConnection, subject: string, queue?: string): Promise<string> {
  const subscription = nc.subscribe(subject, queue ? { queue } : {});
  let timer: NodeJS.Timeout | undefined;
  const closed = await Promise.race([
    subscription.closed,
    new Promise((resolve) => (timer = setTimeout(() => resolve('still subscribed after 5 s'), 5_000))),
  ]);
  clearTimeout(timer);
  subscription.unsubscribe();
  return closed instanceof PermissionViolationError ? closed.message : `not refused: ${String(closed)}`;
}

/** A NestJS request packet signed with `key`, as a client would put it on the wire. */
function requestPacket(pattern: string, body: unknown, key: { keyId: string; secret: string }) {
  return { pattern, data: signedMessage(key, pattern, JSON.stringify(body)), id: randomUUID() };
}

/** Replies the API withheld so far, for any reason, as its metrics count them. */
async function withheldReplies(api: ApiTestApp): Promise<number> {
  return Scrape.parse(await api.app.get(PunctualMetrics).exposition()).value('punctual_rpc_replies_withheld_total');
}

const action = (run: string) => ({ ...notificationExample(3_600_000), metadata: { run } }) as CreateActionRequest;

describe('RPC on NATS with a user per tenant: no tenant reads, answers or suppresses another’s messages (contract §16)', () => {
  let api: ApiTestApp;
  let a: PunctualClient<UntypedActionTypes>;
  let b: PunctualClient<UntypedActionTypes>;

  beforeAll(async () => {
    // The server must be the one of config/nats/tenants.conf: it lets no one in without a user.
    await expect(connect({ servers: NATS_TENANTS_URL }).then((nc) => nc.close())).rejects.toThrow(/Authorization Violation/);
    api = await startCleanApiApp(undefined, {
      RPC_TRANSPORT_URL: natsUrlAs(NATS_USERS.punctual),
      API_KEYS: `${KEY_A.keyId}:${KEY_A.secret}:team-a,${KEY_B.keyId}:${KEY_B.secret}:team-b`,
    });
    a = tenantClient(NATS_USERS.teamA, KEY_A);
    b = tenantClient(NATS_USERS.teamB, KEY_B);
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await api?.close();
  });

  it("each tenant's calls work through the typed client with its own NATS user, and see only its own actions", async () => {
    const run = randomUUID();
    const ofA = await a.create(action(run));
    const ofB = await b.create(action(run));
    expect(await a.get(ofA.id)).toEqual(ofA);
    expect(await b.get(ofB.id)).toEqual(ofB);
    expect((await refusal(b.get(ofA.id))).statusCode).toBe(404);
    expect((await a.list({ limit: 100 })).items.map((item) => item.id)).toEqual([ofA.id]);
  });

  it("tenant B cannot read A's requests or replies: subscribing to the patterns, to A's inbox or to everything is refused", async () => {
    const { nc } = await rawConnection(NATS_USERS.teamB);
    try {
      expect(await subscriptionRefusal(nc, 'punctual.>')).toBe('Permissions Violation for Subscription to "punctual.>"');
      expect(await subscriptionRefusal(nc, RPC_PATTERNS.create)).toBe(`Permissions Violation for Subscription to "${RPC_PATTERNS.create}"`);
      expect(await subscriptionRefusal(nc, '_INBOX_team-a.>')).toBe('Permissions Violation for Subscription to "_INBOX_team-a.>"');
      expect(await subscriptionRefusal(nc, '>')).toBe('Permissions Violation for Subscription to ">"');
      // The default inbox prefix, which a client left unconfigured would use, is not B's either.
      expect(await subscriptionRefusal(nc, '_INBOX.>')).toBe('Permissions Violation for Subscription to "_INBOX.>"');
    } finally {
      await nc.close();
    }
  });

  it("tenant B cannot answer A's request: publishing to A's inbox is refused, and A gets Punctual's real reply alone", async () => {
    const created = await a.create(action(randomUUID()));
    const raw = await rawConnection(NATS_USERS.teamA);
    const forger = await rawConnection(NATS_USERS.teamB);
    try {
      // The worst case: B knows the very inbox A's request names for its reply.
      const inbox = `${NATS_USERS.teamA.inboxPrefix}.${randomUUID()}`;
      const replies: unknown[] = [];
      raw.nc.subscribe(inbox, { callback: (_error, msg) => void replies.push(msg.json()) });
      await raw.nc.flush();
      const packet = { pattern: RPC_PATTERNS.get, data: signedMessage(KEY_A, RPC_PATTERNS.get, JSON.stringify({ id: created.id })), id: randomUUID() };
      forger.nc.publish(inbox, JSON.stringify({ id: packet.id, response: { ...created, status: 'CANCELED' }, isDisposed: true }));
      await forger.nc.flush();
      raw.nc.publish(RPC_PATTERNS.get, JSON.stringify(packet), { reply: inbox });

      await waitUntil("Punctual's reply to A's request", () => replies.length > 0, 15_000);
      const refusal = await waitUntil("the server's refusal of B's reply", () => forger.refused.find((error) => error.operation === 'publish'), 5_000);
      expect(refusal.subject).toBe(inbox);
      await raw.nc.flush();
      expect(replies).toEqual([{ id: packet.id, response: created, isDisposed: true }]);
    } finally {
      await raw.nc.close();
      await forger.nc.close();
    }
  });

  it("tenant B cannot have Punctual answer into A's inbox: signed with B's key or not, such a request runs nothing and is never answered", async () => {
    const victim = await rawConnection(NATS_USERS.teamA);
    const forger = await rawConnection(NATS_USERS.teamB);
    const warnings = jest.spyOn(Logger.prototype, 'warn');
    try {
      const heard: string[] = [];
      victim.nc.subscribe(`${NATS_USERS.teamA.inboxPrefix}.>`, { callback: (_error, msg) => void heard.push(`${msg.subject}: ${msg.string()}`) });
      await victim.nc.flush();
      const before = await storedCounts(api.db);
      const withheldBefore = await withheldReplies(api);
      const forged = [
        requestPacket(RPC_PATTERNS.stats, {}, KEY_B),
        requestPacket(RPC_PATTERNS.create, action(randomUUID()), KEY_B),
        // A's key id without A's secret: the signature fails, and its refusal, which would land in A's inbox, is not sent either.
        requestPacket(RPC_PATTERNS.stats, {}, { keyId: KEY_A.keyId, secret: 'not-team-a-secret-0123456789' }),
      ];
      // Each with an inbox of A's of its own: the NATS server lets Punctual's user send one reply per request it received.
      const inboxes = forged.map(() => `${NATS_USERS.teamA.inboxPrefix}.${randomUUID()}`);
      forged.forEach((packet, i) => forger.nc.publish(packet.pattern, JSON.stringify(packet), { reply: inboxes[i] }));

      // B's own request on the same connection, after them, is answered in B's inbox as usual.
      const own = requestPacket(RPC_PATTERNS.stats, {}, KEY_B);
      const reply = await forger.nc.request(own.pattern, JSON.stringify(own), { timeout: 10_000 });
      expect(reply.subject.startsWith(`${NATS_USERS.teamB.inboxPrefix}.`)).toBe(true);
      expect(reply.json()).toEqual({ id: own.id, response: await b.stats(), isDisposed: true });

      // Punctual says when it withholds a reply: once it has for each forged request, none of them can still be answered.
      await waitUntil(
        'Punctual to withhold the replies to the forged requests',
        async () => (await withheldReplies(api)) === withheldBefore + forged.length,
        15_000,
      );
      await victim.nc.flush();

      expect(heard).toEqual([]);
      expect(await storedCounts(api.db)).toEqual(before);
      expect(warnings).toHaveBeenCalledWith(
        expect.stringMatching(
          new RegExp(`^Left a request of tenant team-b on punctual\\.actions\\.\\w+ unhandled and unanswered: its reply subject "${inboxes[0]}"`),
        ),
      );
      expect(warnings).toHaveBeenCalledWith(
        expect.stringMatching(/^Left a request on punctual\.actions\.stats unanswered: "Signature does not match for key 'team-a-key'/),
      );
      // A is still served, in its own inbox.
      const ofA = await a.create(action(randomUUID()));
      expect(await a.get(ofA.id)).toEqual(ofA);
    } finally {
      warnings.mockRestore();
      await victim.nc.close();
      await forger.nc.close();
    }
  });

  it("tenant B cannot suppress A's requests: joining Punctual's queue group is refused, and A's requests are all still answered", async () => {
    const { nc } = await rawConnection(NATS_USERS.teamB);
    try {
      expect(await subscriptionRefusal(nc, 'punctual.>', 'punctual-api')).toBe(
        'Permissions Violation for Subscription to "punctual.>" using queue "punctual-api"',
      );
      expect(await subscriptionRefusal(nc, RPC_PATTERNS.create, 'punctual-api')).toBe(
        `Permissions Violation for Subscription to "${RPC_PATTERNS.create}" using queue "punctual-api"`,
      );
      const run = randomUUID();
      const created: ActionResource[] = await Promise.all(Array.from({ length: 20 }, () => a.create(action(run))));
      expect(new Set(created.map((item) => item.id)).size).toBe(20);
    } finally {
      await nc.close();
    }
  });

  it("with RPC on NATS, Punctual claims no request in its Redis: a tenant's client needs, and is given, no access to it", async () => {
    const redis = new Redis(process.env.REDIS_URL!);
    try {
      // Claims from RPC on Redis earlier in the run live for minutes: only new ones would count.
      const before = new Set(await redis.keys('punctual-test:rpc-request:*'));
      await a.create(action(randomUUID()));
      await b.stats();
      expect((await redis.keys('punctual-test:rpc-request:*')).filter((key) => !before.has(key))).toEqual([]);
    } finally {
      redis.disconnect();
    }
  });
});
