import { Server, ServerCredentials, ServerDuplexStream } from '@grpc/grpc-js';
import { Writer } from 'protobufjs';
import { FileDescriptorProto } from 'protobufjs/ext/descriptor';
import { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { HostResolver } from '@app/outbound';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { messageText, storedCounts } from './support/fixtures';

/** How long a create may wait for GRPC targets (GRPC_CHECK_TIMEOUT_MS), and room for a loaded machine. */
const CHECK_WAIT_MS = 2_000;
const SLACK_MS = 3_000;

/** Names under `.silent.test` never resolve, as with a name server that swallows queries: each lookup waits for ever. */
const silentDns = {
  resolve: (hostName: string): Promise<LookupAddress[]> =>
    hostName.endsWith('.silent.test') ? new Promise<LookupAddress[]>(() => undefined) : lookup(hostName, { all: true }),
};

const grpcAction = (target: string) => ({
  action: 'GRPC',
  executionTime: Date.now() + 3_600_000,
  data: { target, service: 'shop.v1.Orders', method: 'Ship', message: { order_id: 'o-1' } },
});

describe('The costliest GRPC creates: the API waits for targets 2 s at most and stays responsive', () => {
  let api: ApiTestApp;

  beforeAll(async () => {
    api = await startCleanApiApp(undefined, undefined, [{ provide: HostResolver, useValue: silentDns }]);
  });
  afterAll(async () => {
    await api?.close();
  });

  /** /health/live's answer times while `attack` runs. */
  async function liveWhile<T>(attack: Promise<T>): Promise<{ answer: T; probes: number[] }> {
    const probes: number[] = [];
    let attacking = true;
    const probing = (async () => {
      while (attacking) {
        const started = performance.now();
        expect((await api.client.get('/health/live')).status).toBe(200);
        probes.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    try {
      return { answer: await attack, probes };
    } finally {
      attacking = false;
      await probing;
    }
  }
  const p99 = (probes: number[]) => [...probes].sort((a, b) => a - b)[Math.floor(probes.length * 0.99)];

  /** `request`'s answer and how long it took; a request still unanswered after CHECK_WAIT_MS + SLACK_MS * 3 is a failure, not a hang. */
  async function timed<T>(request: Promise<T>): Promise<{ answer: T; ms: number }> {
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('no answer')), CHECK_WAIT_MS + SLACK_MS * 3);
    });
    try {
      const answer = await Promise.race([request, late]);
      return { answer, ms: performance.now() - started };
    } finally {
      clearTimeout(timer);
    }
  }

  it('a target whose name never resolves is accepted once the check gives up, not held for as long as DNS takes', async () => {
    const { answer, ms } = await timed(api.client.post('/actions', grpcAction('orders.silent.test:443')));
    expect(answer.status).toBe(201);
    expect(ms).toBeLessThan(CHECK_WAIT_MS + SLACK_MS);
  });

  it('a batch of 1000 GRPC actions at 1000 silent names: answered after one 2 s wait, while /health/live keeps answering at once', async () => {
    const before = await storedCounts(api.db);
    const items = Array.from({ length: 1000 }, (_, i) => grpcAction(`h${i}.silent.test:50051`));
    const { answer: timedAnswer, probes } = await liveWhile(timed(api.client.post('/actions/batch', { items })));
    const { answer, ms } = timedAnswer;
    expect(answer.status).toBe(201);
    expect(ms).toBeLessThan(CHECK_WAIT_MS + SLACK_MS * 2);
    expect(probes.length).toBeGreaterThan(10);
    expect(p99(probes)).toBeLessThan(500);
    expect((await storedCounts(api.db)).actions).toBe(before.actions + 1000);
  });

  it('a target whose reflection service describes its service with 13,000 types: refused with 400 before they are built, 20 times, the API answering throughout', async () => {
    const server = await hugeReflectionServer(13_000);
    try {
      const before = await storedCounts(api.db);
      const action = grpcAction(`127.0.0.1:${server.port}`);
      const create = () => ({ ...action, data: { ...action.data, service: 'hostile.v1.Huge', method: 'Call', message: {} } });
      // Four rounds of five at once: past eight lookups in flight, an API accepts GRPC actions unchecked.
      const rounds = async () => {
        const answers = [];
        for (let round = 0; round < 4; round++)
          answers.push(...(await Promise.all(Array.from({ length: 5 }, () => api.client.post('/actions', create())))));
        return answers;
      };
      const { answer, probes } = await liveWhile(rounds());
      expect(answer).toHaveLength(20);
      for (const response of answer) {
        expect(response.status).toBe(400);
        expect(messageText(response.body)).toMatch(
          /^data\.service: the target's reflection service describes hostile\.v1\.Huge with 13001 types .*list its protos in GRPC_PROTO_PATHS instead$/,
        );
      }
      // Each round decodes five answers of 13,000 types (tens of ms each); building their definitions held the loop seconds.
      // The bound leaves room for a test run loading both cores, where a round's decoding alone has taken over a second.
      expect(p99(probes)).toBeLessThan(2000);
      expect(await storedCounts(api.db)).toEqual(before);
    } finally {
      server.stop();
    }
  });
});

/**
 * A gRPC server whose reflection service (v1) answers every request with one file declaring
 * `hostile.v1.Huge` and `types` tiny messages besides its request: the answer is encoded once, so
 * the server costs the spec's process (where the API runs too) nothing per request.
 */
async function hugeReflectionServer(types: number): Promise<{ port: number; stop: () => void }> {
  const filler = Array.from({ length: types }, (_, i) => ({ name: `M${i}`, field: [{ name: 'a', number: 1, type: 9, label: 1 }] }));
  const file = {
    name: 'huge.proto',
    package: 'hostile.v1',
    syntax: 'proto3',
    messageType: [{ name: 'Empty' }, ...filler],
    service: [{ name: 'Huge', method: [{ name: 'Call', inputType: '.hostile.v1.Empty', outputType: '.hostile.v1.Empty' }] }],
  };
  const fileBytes = FileDescriptorProto.encode(FileDescriptorProto.fromObject(file)).finish();
  // ServerReflectionResponse { file_descriptor_response (4) { file_descriptor_proto (1): [file] } }
  const descriptors = Writer.create()
    .uint32((1 << 3) | 2)
    .bytes(fileBytes)
    .finish();
  const answer = Buffer.from(
    Writer.create()
      .uint32((4 << 3) | 2)
      .bytes(descriptors)
      .finish(),
  );
  const raw = (bytes: Buffer) => bytes;
  const server = new Server();
  server.addService(
    {
      ServerReflectionInfo: {
        path: '/grpc.reflection.v1.ServerReflection/ServerReflectionInfo',
        requestStream: true,
        responseStream: true,
        requestSerialize: raw,
        requestDeserialize: raw,
        responseSerialize: raw,
        responseDeserialize: raw,
      },
    },
    {
      ServerReflectionInfo: (call: ServerDuplexStream<Buffer, Buffer>) => {
        call.on('data', () => call.write(answer));
        call.on('end', () => call.end());
      },
    },
  );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  return { port, stop: () => server.forceShutdown() };
}
