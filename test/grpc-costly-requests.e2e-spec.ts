import { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { HostResolver } from '@app/outbound';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { storedCounts } from './support/fixtures';

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
    const { answer, ms } = await timed(api.client.post('/actions/batch', { items }));
    attacking = false;
    await probing;
    expect(answer.status).toBe(201);
    expect(ms).toBeLessThan(CHECK_WAIT_MS + SLACK_MS * 2);
    const p99 = probes.sort((a, b) => a - b)[Math.floor(probes.length * 0.99)];
    expect(probes.length).toBeGreaterThan(10);
    expect(p99).toBeLessThan(500);
    expect((await storedCounts(api.db)).actions).toBe(before.actions + 1000);
  });
});
