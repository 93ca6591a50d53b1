import { status } from '@grpc/grpc-js';
import { PunctualConfig, loadConfig } from '@app/config';
import { EgressPolicy, GrpcCaller, HostResolver } from '@app/outbound';
import { ORDERS_PROTO, GrpcTestServer, fulfillmentContext, waitUntil } from '@app/testing';
import { PermanentFulfillmentError } from '@punctual/sdk';
import { GrpcFulfillment } from './grpc.fulfillment';

describe('GrpcFulfillment (against a local gRPC server)', () => {
  // The test environment: 127.0.0.1 and localhost allowed as destinations.
  const config = loadConfig();
  const callerWith = (outbound: Partial<PunctualConfig['outbound']> = {}, policy = new EgressPolicy(config.outbound.allowedHosts)) =>
    new GrpcCaller(policy, new HostResolver(), { ...config, outbound: { ...config.outbound, ...outbound } });
  const reflecting = new GrpcTestServer();
  const silent = new GrpcTestServer('none');
  const older = new GrpcTestServer('v1alpha');
  const callers: GrpcCaller[] = [];
  const fulfillmentWith = (caller: GrpcCaller) => {
    callers.push(caller);
    return new GrpcFulfillment(caller);
  };
  const fulfillment = fulfillmentWith(callerWith());
  const data = (orderId: string, extra: object = {}) => ({
    target: `127.0.0.1:${reflecting.plainPort}`,
    service: 'punctual.test.Orders',
    method: 'Ship',
    message: { order_id: orderId },
    ...extra,
  });

  beforeAll(async () => {
    await reflecting.start();
    await silent.start();
    await older.start();
  });
  afterAll(async () => {
    for (const caller of callers) caller.onApplicationShutdown();
    await reflecting.stop();
    await silent.stop();
    await older.stop();
  });

  it('notes the reply as JSON, cut to 1 KiB', async () => {
    reflecting.answers.set('long', [{ code: status.OK, tracking: 'x'.repeat(3000) }]);
    const { note } = await fulfillment.fulfill(data('long'), fulfillmentContext());
    expect(note).toBe(
      `GRPC punctual.test.Orders/Ship on 127.0.0.1:${reflecting.plainPort}: OK ${`{"tracking_code":"${'x'.repeat(3000)}"}`.slice(0, 1024)}`,
    );
  });

  it('never notes a metadata value or the signature that the server echoes back', async () => {
    const context = fulfillmentContext();
    const signature = (await context.sign('{"order_id":"echo"}'))['webhook-signature'];
    reflecting.answers.set('echo', [{ code: status.UNAVAILABLE, details: `saw Bearer token-secret-1 and ${signature}` }]);
    const attempt = fulfillment.fulfill(data('echo', { metadata: { authorization: 'Bearer token-secret-1' } }), context);
    await expect(attempt).rejects.toThrow(/ended with UNAVAILABLE: saw \[redacted\] and \[redacted\]$/);
  });

  it.each([
    [status.NOT_FOUND, true],
    [status.UNAUTHENTICATED, true],
    [status.PERMISSION_DENIED, true],
    [status.UNIMPLEMENTED, true],
    [status.INTERNAL, false],
    [status.RESOURCE_EXHAUSTED, false],
  ])('fails the action at once on status %s: %s', async (code, permanent) => {
    reflecting.answers.set(`status-${code}`, [{ code, details: 'no' }]);
    const error = await fulfillment.fulfill(data(`status-${code}`), fulfillmentContext()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error instanceof PermanentFulfillmentError).toBe(permanent);
  });

  it('fails the action at once when the service has no such method', async () => {
    const attempt = fulfillment.fulfill(data('m', { method: 'Cancel' }), fulfillmentContext());
    await expect(attempt).rejects.toBeInstanceOf(PermanentFulfillmentError);
    await expect(attempt).rejects.toThrow('service punctual.test.Orders has no method Cancel');
  });

  it('fails, to be retried, after timeoutMs', async () => {
    reflecting.answers.set('slow', [{ code: status.OK, tracking: 'late', delayMs: 2000 }]);
    const attempt = fulfillment.fulfill(data('slow', { timeoutMs: 300 }), fulfillmentContext());
    await expect(attempt).rejects.toThrow(`GRPC punctual.test.Orders/Ship on 127.0.0.1:${reflecting.plainPort} timed out after 300 ms`);
    await expect(attempt).rejects.not.toBeInstanceOf(PermanentFulfillmentError);
  });

  it('fails, to be retried, after timeoutMs when the name of the target never resolves', async () => {
    const silentDns = { resolve: () => new Promise(() => undefined) } as HostResolver;
    const stuck = fulfillmentWith(new GrpcCaller(new EgressPolicy(config.outbound.allowedHosts), silentDns, config));
    const attempt = stuck.fulfill(data('dns', { target: 'orders.example:443', timeoutMs: 300 }), fulfillmentContext());
    await expect(attempt).rejects.toThrow('GRPC punctual.test.Orders/Ship on orders.example:443 timed out after 300 ms');
    await expect(attempt).rejects.not.toBeInstanceOf(PermanentFulfillmentError);
  });

  it('cancels the call when the attempt is aborted', async () => {
    reflecting.answers.set('aborted', [{ code: status.OK, tracking: 'late', delayMs: 5000 }]);
    const controller = new AbortController();
    const attempt = fulfillment.fulfill(data('aborted'), fulfillmentContext({ signal: controller.signal }));
    const started = Date.now();
    // Aborted once the server has the call, so that the call itself is what is cancelled.
    await waitUntil('the server to have the call', async () => reflecting.callsFor('aborted').length > 0 || null);
    controller.abort();
    await expect(attempt).rejects.toThrow('stopped: the attempt was cancelled');
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('fails the action at once, without connecting, when the egress policy refuses the target', async () => {
    const strict = fulfillmentWith(callerWith({}, new EgressPolicy()));
    const attempt = strict.fulfill(data('refused'), fulfillmentContext());
    await expect(attempt).rejects.toBeInstanceOf(PermanentFulfillmentError);
    await expect(attempt).rejects.toThrow('not sent: the destination is not allowed (127.0.0.1 is a loopback address)');
    expect(reflecting.callsFor('refused')).toEqual([]);
  });

  it('judges the name again at every call: a name that later resolves to a refused address is not called, its open channel notwithstanding', async () => {
    // A name that first resolves to the allowed 127.0.0.1, then to 127.0.0.2, which the test environment does not allow: DNS rebinding.
    const answers = ['127.0.0.1', '127.0.0.2'];
    let current = answers[0];
    const rebinding = { resolve: async () => [{ address: current, family: 4 }] } as HostResolver;
    const caller = new GrpcCaller(new EgressPolicy(config.outbound.allowedHosts), rebinding, config);
    const rebound = fulfillmentWith(caller);
    const target = `orders.example:${reflecting.plainPort}`;
    await expect(rebound.fulfill(data('rebind-1', { target }), fulfillmentContext())).resolves.toMatchObject({ note: expect.stringContaining('OK') });
    current = answers[1];
    const attempt = rebound.fulfill(data('rebind-2', { target }), fulfillmentContext());
    await expect(attempt).rejects.toBeInstanceOf(PermanentFulfillmentError);
    await expect(attempt).rejects.toThrow('not sent: the destination is not allowed (orders.example resolves to no allowed address)');
    expect(reflecting.callsFor('rebind-2')).toEqual([]);
  });

  it('calls a server without reflection through the protos that GRPC_PROTO_PATHS names', async () => {
    const target = `127.0.0.1:${silent.plainPort}`;
    await expect(fulfillment.fulfill(data('p', { target }), fulfillmentContext())).rejects.toThrow('has no reflection service');
    const withProtos = fulfillmentWith(callerWith({ grpcProtoPaths: [ORDERS_PROTO] }));
    await expect(withProtos.fulfill(data('proto', { target, message: { order_id: 'proto', quantity: 3 } }), fulfillmentContext())).resolves.toEqual({
      note: `GRPC punctual.test.Orders/Ship on ${target}: OK {"tracking_code":"T-proto"}`,
    });
    expect(silent.callsFor('proto').map((call) => call.request)).toEqual([{ order_id: 'proto', quantity: 3 }]);
  });

  it('finds the method through v1alpha reflection on a server that has no v1', async () => {
    const target = `127.0.0.1:${older.plainPort}`;
    await expect(fulfillment.fulfill(data('alpha', { target }), fulfillmentContext())).resolves.toEqual({
      note: `GRPC punctual.test.Orders/Ship on ${target}: OK {"tracking_code":"T-alpha"}`,
    });
  });

  it('refuses, without calling, a message that does not fit the request type', async () => {
    const attempt = fulfillment.fulfill(data('bad', { message: { order_id: 'bad', notes: 'one note' } }), fulfillmentContext());
    await expect(attempt).rejects.toBeInstanceOf(PermanentFulfillmentError);
    await expect(attempt).rejects.toThrow('not sent: the message does not fit the request type of punctual.test.Orders/Ship');
    expect(reflecting.callsFor('bad')).toEqual([]);
  });
});
