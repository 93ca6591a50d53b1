import { ActionTypeRegistry } from '@app/action-types';
import { IMPERSONATING_HEADERS, dataProblems } from '@app/testing';
import { GRPC } from './grpc.type';

describe('GRPC data', () => {
  const registry = new ActionTypeRegistry([GRPC]);
  const valid = { target: 'orders.example.com:443', service: 'shop.v1.Orders', method: 'Ship', message: { order_id: 'o-1' } };
  const problemsOf = (data: object) => dataProblems(registry, 'GRPC', data);

  it.each([
    valid,
    { ...valid, target: '[2001:db8::1]:50051', tls: true, timeoutMs: 120000 },
    { ...valid, target: '10.0.0.5:50051', service: 'Orders', message: {} },
    { ...valid, metadata: { authorization: 'Bearer abc', 'X-Trace_Id.v2': 'a b ~' } },
  ])('accepts %j', async (data) => {
    expect(await problemsOf(data)).toEqual([]);
  });

  it.each(
    [
      [{ ...valid, target: 'https://orders.example.com:443' }, 'data.target: target must be host:port'],
      [{ ...valid, target: 'orders.example.com' }, 'data.target: target must be host:port'],
      [{ ...valid, target: 'orders.example.com:0' }, 'data.target: target must be host:port'],
      [{ ...valid, target: 'orders.example.com:65536' }, 'data.target: target must be host:port'],
      [{ ...valid, target: 'user@orders.example.com:443' }, 'data.target: target must be host:port'],
      [{ ...valid, target: '2001:db8::1:443' }, 'data.target: target must be host:port'],
      [{ ...valid, service: 'shop..Orders' }, 'data.service: service must be a fully qualified service name'],
      [{ ...valid, service: '/shop.Orders' }, 'data.service: service must be a fully qualified service name'],
      [{ ...valid, method: 'Ship/Other' }, 'data.method: method must be a method name as the proto declares it'],
      [{ ...valid, method: 'm'.repeat(129) }, 'data.method: method must be shorter than or equal to 128 characters'],
      [{ ...valid, message: [1] }, 'data.message: message must be a JSON object'],
      [{ ...valid, message: 'text' }, 'data.message: message must be a JSON object'],
      [{ ...valid, message: { blob: 'x'.repeat(64 * 1024) } }, 'data.message: message takes 65547 bytes as JSON; at most 65536 are sent'],
      [{ ...valid, tls: 'yes' }, 'data.tls: tls must be a boolean value'],
      [{ ...valid, timeoutMs: 0 }, 'data.timeoutMs: timeoutMs must not be less than 1'],
      [{ ...valid, timeoutMs: 120001 }, 'data.timeoutMs: timeoutMs must not be greater than 120000'],
      [{ ...valid, metadata: 'a=b' }, 'data.metadata: metadata must be an object whose values are strings'],
      [{ ...valid, metadata: { 'x-n': 1 } }, 'data.metadata: metadata["x-n"] must be a string'],
      [{ ...valid, metadata: { 'x n': 'v' } }, 'data.metadata: metadata["x n"] is not a valid metadata name'],
      [{ ...valid, metadata: { ':path': '/other.Service/Method' } }, 'data.metadata: metadata[":path"] is not a valid metadata name'],
      [{ ...valid, metadata: { 'grpc-timeout': '1S' } }, 'data.metadata: metadata["grpc-timeout"] is reserved by gRPC'],
      [{ ...valid, metadata: { 'Content-Type': 'application/grpc' } }, 'data.metadata: metadata["Content-Type"] is set by gRPC on every call'],
      [{ ...valid, metadata: { te: 'trailers' } }, 'data.metadata: metadata["te"] is set by gRPC on every call'],
      [{ ...valid, metadata: { 'trace-bin': 'AAE=' } }, 'data.metadata: metadata["trace-bin"] is binary metadata'],
      [{ ...valid, metadata: { 'Idempotency-Key': 'forged:1' } }, 'data.metadata: metadata["Idempotency-Key"] is set by Punctual on every call'],
      [{ ...valid, metadata: { 'webhook-signature': 'v1,forged' } }, 'data.metadata: metadata["webhook-signature"] is set by Punctual on every call'],
      [{ ...valid, metadata: { 'x-a': 'one', 'X-A': 'two' } }, 'data.metadata: metadata["X-A"] is named twice'],
      [{ ...valid, metadata: { 'x-a': 'line\nbreak' } }, 'data.metadata: metadata["x-a"] has a value with characters that cannot be sent'],
      [{ ...valid, metadata: { 'x-a': 'café' } }, 'data.metadata: metadata["x-a"] has a value with characters that cannot be sent'],
      [
        { ...valid, metadata: Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`x-${i}`, 'v'])) },
        'data.metadata: metadata has 33 entries; at most 32',
      ],
      [{ ...valid, metadata: { 'x-a': 'v'.repeat(5000), 'x-b': 'v'.repeat(5000) } }, 'data.metadata: metadata takes 10006 bytes; at most 8192'],
      [{ ...valid, extra: true }, 'data.extra: property extra should not exist'],
      ...IMPERSONATING_HEADERS.filter((name) => !/^host$/i.test(name)).map((name): [object, string] => [
        { ...valid, metadata: { [name]: 'admin.internal.example' } },
        `data.metadata: metadata["${name}"] may not be set`,
      ]),
    ].map(([data, problem]): [string, object] => [problem as string, data as object]),
  )('refuses with "%s"', async (problem, data) => {
    const problems = await problemsOf(data);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(problem);
  });

  it.each([{ target: 'a:1' }, { ...valid, service: undefined }, { ...valid, method: undefined }, { ...valid, message: undefined }])(
    'requires target, service, method and message: %j',
    async (data) => {
      expect((await problemsOf(data)).length).toBeGreaterThan(0);
    },
  );
});
