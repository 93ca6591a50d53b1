import { judgeRpcTransport } from './rpc-trust';

const QUEUE_REDIS = { kind: 'redis', url: 'redis://127.0.0.1:6379' } as const;
const tenants = (n: number) => () => Promise.resolve(n);
const INBOX = '_INBOX_{tenant}';

describe('judgeRpcTransport: which transport a tenant may be handed', () => {
  it("serves Punctual's own Redis, when RPC_TRANSPORT_URL is unset, while one tenant holds keys", async () => {
    expect(
      await judgeRpcTransport({ transport: QUEUE_REDIS, isQueueRedisByDefault: true, tenantInboxPrefix: INBOX, tenantInboxAlways: false }, tenants(1)),
    ).toEqual({
      serve: true,
      warning: null,
    });
  });

  it("does not serve Punctual's own Redis by default once two tenants hold keys, and says what to set", async () => {
    const serving = await judgeRpcTransport(
      { transport: QUEUE_REDIS, isQueueRedisByDefault: true, tenantInboxPrefix: INBOX, tenantInboxAlways: false },
      tenants(2),
    );
    expect(serving).toEqual({ serve: false, reason: expect.stringMatching(/^Not serving message patterns: RPC_TRANSPORT_URL is unset and 2 tenants/) });
    expect(!serving.serve && serving.reason).toMatch(/NATS server with a user per tenant/);
  });

  it('serves a Redis named on purpose, warning that tenants sharing it are one trust domain', async () => {
    const serving = await judgeRpcTransport(
      { transport: QUEUE_REDIS, isQueueRedisByDefault: false, tenantInboxPrefix: INBOX, tenantInboxAlways: false },
      tenants(3),
    );
    expect(serving).toEqual({ serve: true, warning: expect.stringMatching(/3 tenants hold API keys: a Redis transport is one trust domain/) });
    expect(
      await judgeRpcTransport({ transport: QUEUE_REDIS, isQueueRedisByDefault: false, tenantInboxPrefix: INBOX, tenantInboxAlways: false }, tenants(1)),
    ).toEqual({
      serve: true,
      warning: null,
    });
  });

  it('serves NATS as configured, without counting tenants, while replies go only into the signing tenant’s inbox', async () => {
    const count = jest.fn(tenants(5));
    expect(
      await judgeRpcTransport(
        { transport: { kind: 'nats', url: 'nats://127.0.0.1:4223' }, isQueueRedisByDefault: false, tenantInboxPrefix: INBOX, tenantInboxAlways: false },
        count,
      ),
    ).toEqual({
      serve: true,
      warning: null,
    });
    expect(count).not.toHaveBeenCalled();
  });

  it('serves RabbitMQ as configured, without counting tenants: replies go only to direct reply-to', async () => {
    const count = jest.fn(tenants(5));
    expect(
      await judgeRpcTransport(
        { transport: { kind: 'rmq', url: 'amqp://127.0.0.1:5672' }, isQueueRedisByDefault: false, tenantInboxPrefix: null, tenantInboxAlways: false },
        count,
      ),
    ).toEqual({ serve: true, warning: null });
    expect(count).not.toHaveBeenCalled();
  });

  it('serves NATS that answers into any inbox, warning once several tenants hold keys', async () => {
    const nats = {
      transport: { kind: 'nats', url: 'nats://127.0.0.1:4222' },
      isQueueRedisByDefault: false,
      tenantInboxPrefix: null,
      tenantInboxAlways: false,
    } as const;
    expect(await judgeRpcTransport(nats, tenants(1))).toEqual({ serve: true, warning: null });
    expect(await judgeRpcTransport(nats, tenants(2))).toEqual({
      serve: true,
      warning: expect.stringMatching(/^RPC_TENANT_INBOX_PREFIX is off, and 2 tenants hold API keys: .* into another's inbox/),
    });
  });
});
