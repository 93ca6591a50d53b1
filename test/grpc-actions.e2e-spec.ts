import { status } from '@grpc/grpc-js';
import { INestApplicationContext } from '@nestjs/common';
import { Webhook } from 'standardwebhooks';
import { canonicalJson } from '@punctual/contract';
import { GrpcTestServer, waitUntil } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { messageText, storedCounts } from './support/fixtures';
import { queuedJobs } from './support/queue-state';
import { startWorker } from './support/worker-test-app';

/** What a receiver holding the test key's secret verifies signatures with. */
const testKeyReceiver = new Webhook(Buffer.from('test-secret-0123456789', 'utf8').toString('base64'));

describe('GRPC actions call a unary method of a gRPC server (contract §17)', () => {
  const server = new GrpcTestServer();
  let api: ApiTestApp;
  let worker: INestApplicationContext;

  beforeAll(async () => {
    await server.start();
    // The API and the worker trust the spec's CA; the test environment allows 127.0.0.1 and localhost as destinations.
    const env = { GRPC_CA_FILE: server.caFile, MAX_RETRIES: '3' };
    api = await startCleanApiApp(undefined, env);
    worker = await startWorker({ env });
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await server.stop();
  });

  const ship = (orderId: string, extra: Record<string, unknown> = {}) => ({
    target: `127.0.0.1:${server.plainPort}`,
    service: 'punctual.test.Orders',
    method: 'Ship',
    message: { quantity: 2, order_id: orderId },
    ...extra,
  });

  async function create(data: Record<string, unknown>): Promise<string> {
    const response = await api.client.post('/actions', { action: 'GRPC', executionTime: Date.now(), data });
    expect(response.status).toBe(201);
    return response.body.id;
  }
  const finished = (id: string) =>
    waitUntil(`action ${id} to finish`, async () => {
      const action = (await api.client.get(`/actions/${id}`)).body;
      return ['COMPLETED', 'FAILED'].includes(action.status) ? action : null;
    });
  const historyOf = async (id: string) => (await api.client.get(`/actions/${id}/history`)).body as { to: string; attempt: number; note: string | null }[];

  it('calls the method once with the message, its idempotency key and a signature the tenant key verifies; the reply is the note', async () => {
    const id = await create(ship('order-ok', { metadata: { 'X-Tenant-Ref': 'ref-1' } }));
    expect((await finished(id)).status).toBe('COMPLETED');
    const calls = server.callsFor('order-ok');
    expect(calls).toHaveLength(1);
    const [{ request, metadata }] = calls;
    expect(request).toEqual({ order_id: 'order-ok', quantity: 2 });
    expect(metadata).toMatchObject({ 'idempotency-key': `${id}:1`, 'webhook-id': `${id}:1`, 'x-tenant-ref': 'ref-1' });
    // The receiver gets protobuf; it verifies the message's JSON with sorted keys.
    expect(testKeyReceiver.verify(canonicalJson({ order_id: 'order-ok', quantity: 2 }), metadata)).toEqual({ order_id: 'order-ok', quantity: 2 });
    expect(() => testKeyReceiver.verify(canonicalJson({ order_id: 'order-ok', quantity: 3 }), metadata)).toThrow('No matching signature found');
    expect((await historyOf(id)).at(-1)!.note).toBe(`GRPC punctual.test.Orders/Ship on 127.0.0.1:${server.plainPort}: OK {"tracking_code":"T-order-ok"}`);
  });

  it('sends nested messages and maps, written as proto3 JSON writes them or as lists of entries, to a method found by reflection', async () => {
    const asObject = await create(
      ship('order-nested', {
        message: { order_id: 'order-nested', destination: { city: 'Lyon' }, stops: { first: { city: 'Dijon' }, then: { city: 'Mâcon' } } },
      }),
    );
    const asEntries = await create(ship('order-entries', { message: { order_id: 'order-entries', stops: [{ key: 'first', value: { city: 'Dijon' } }] } }));
    expect((await finished(asObject)).status).toBe('COMPLETED');
    expect((await finished(asEntries)).status).toBe('COMPLETED');
    expect(server.callsFor('order-nested').map((call) => call.request)).toEqual([
      { order_id: 'order-nested', destination: { city: 'Lyon' }, stops: { first: { city: 'Dijon' }, then: { city: 'Mâcon' } } },
    ]);
    expect(server.callsFor('order-entries').map((call) => call.request)).toEqual([{ order_id: 'order-entries', stops: { first: { city: 'Dijon' } } }]);
  });

  it('retries a call that ended UNAVAILABLE, with the same idempotency key, until it succeeds', async () => {
    const unavailable = { code: status.UNAVAILABLE, details: 'warming up' };
    server.answers.set('order-retry', [unavailable, unavailable]);
    const id = await create(ship('order-retry'));
    const action = await finished(id);
    // With the history's notes, so that a failure says how each attempt ended.
    expect({ status: action.status, notes: (await historyOf(id)).map((entry) => entry.note) }).toMatchObject({ status: 'COMPLETED' });
    const calls = server.callsFor('order-retry');
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((call) => call.metadata['idempotency-key']))).toEqual(new Set([`${id}:1`]));
    const failures = (await historyOf(id)).filter((entry) => entry.note?.includes('UNAVAILABLE'));
    expect(failures.map((entry) => entry.note)).toEqual([
      `GRPC punctual.test.Orders/Ship on 127.0.0.1:${server.plainPort} ended with UNAVAILABLE: warming up`,
      `GRPC punctual.test.Orders/Ship on 127.0.0.1:${server.plainPort} ended with UNAVAILABLE: warming up`,
    ]);
  });

  it('fails the action at once, after one attempt, on INVALID_ARGUMENT', async () => {
    server.answers.set('order-bad', [{ code: status.INVALID_ARGUMENT, details: 'quantity too large' }]);
    const id = await create(ship('order-bad'));
    const action = await finished(id);
    expect(action.status).toBe('FAILED');
    expect(server.callsFor('order-bad')).toHaveLength(1);
    expect(Math.max(...(await historyOf(id)).map((entry) => entry.attempt))).toBe(1);
    expect(action.lastError).toContain('ended with INVALID_ARGUMENT: quantity too large');
  });

  it('calls over TLS, trusting the CA that GRPC_CA_FILE names', async () => {
    const id = await create(ship('order-tls', { target: `localhost:${server.tlsPort}`, tls: true }));
    expect((await finished(id)).status).toBe('COMPLETED');
    expect(server.callsFor('order-tls')).toEqual([expect.objectContaining({ tls: true })]);
  });

  describe('refuses at create, storing and queueing nothing', () => {
    async function expectRefused(data: Record<string, unknown>, message: RegExp | string) {
      const before = await storedCounts(api.db);
      const jobsBefore = await queuedJobs(api.app);
      const response = await api.client.post('/actions', { action: 'GRPC', executionTime: Date.now(), data });
      expect(response.status).toBe(400);
      expect(messageText(response.body)).toMatch(message);
      expect(await storedCounts(api.db)).toEqual(before);
      expect(await queuedJobs(api.app)).toBe(jobsBefore);
    }

    it('a method the target does not serve, as its reflection service says', async () => {
      await expectRefused(ship('order-x', { method: 'Cancel' }), /^data\.method: service punctual\.test\.Orders has no method Cancel$/);
    });

    it('a service the target does not serve', async () => {
      await expectRefused(
        ship('order-x', { service: 'punctual.test.Invoices' }),
        /^data\.service: service punctual\.test\.Invoices is not served by the target$/,
      );
    });

    it('a streaming method', async () => {
      await expectRefused(ship('order-x', { method: 'Track' }), /^data\.method: punctual\.test\.Orders\/Track is a streaming method/);
    });

    it('fields the request type does not have, each named by its path, nested ones and map values included', async () => {
      const message = { order_id: 'order-x', orderId: 'order-x', destination: { town: 'Lyon' }, stops: { first: { city: 'Dijon', zip: '21000' } } };
      await expectRefused(
        ship('order-x', { message }),
        ['orderId', 'destination.town', 'stops.first.zip']
          .map((field) => `data.message.${field}: the request type of punctual.test.Orders/Ship has no such field`)
          .join('\n'),
      );
      expect(server.callsFor('order-x')).toEqual([]);
    });

    it('a message protobuf cannot write as the request type', async () => {
      await expectRefused(
        ship('order-x', { message: { order_id: 'order-x', notes: 'one note' } }),
        'data.message: does not fit the request type of punctual.test.Orders/Ship (.punctual.test.ShipRequest.notes: array expected)',
      );
    });

    it.each([
      ['a link-local address', '169.254.169.254:50051', /data\.target: the destination is not allowed \(169\.254\.169\.254 is a link-local address\)/],
      [
        'a loopback address outside the allow-list',
        '127.0.0.2:50051',
        /data\.target: the destination is not allowed \(127\.0\.0\.2 is a loopback address\)/,
      ],
      ['a private address', '[fd00::1]:443', /data\.target: the destination is not allowed \(fd00::1 is a private address\)/],
    ])('a target at %s, without connecting to it', async (_name, target, message) => {
      await expectRefused(ship('order-x', { target }), message);
    });
  });

  it('accepts an action whose target cannot be asked (nothing listens there): the worker judges it when it calls', async () => {
    const response = await api.client.post('/actions', {
      action: 'GRPC',
      executionTime: Date.now() + 3_600_000,
      data: ship('order-later', { target: '127.0.0.1:1' }),
    });
    expect(response.status).toBe(201);
    await api.client.delete(`/actions/${response.body.id}`);
  });
});
