import { RPC_PATTERNS } from '@punctual/contract';
import { PunctualError, SignedRpc } from '@punctual/client';
import { TEST_KEY } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { httpRequestExample, storedCounts } from './support/fixtures';

/** `[[[…]]]`: the JSON most expensive to parse per byte, 1 MB (a batch may hold 1 MiB). */
const NESTED_ARRAYS = '['.repeat(500_000) + ']'.repeat(500_000);
/** As many bytes of JSON that cost next to nothing to parse: one long string in an array. */
const FLAT_TEXT = `["${'x'.repeat(NESTED_ARRAYS.length - 4)}"]`;
const ROUNDS = 20;

/**
 * The wall time of `ROUNDS` requests of each body, sent one after another, each checked to be
 * refused with `status`. The bodies take turns, so both see the same load on the machine.
 */
async function timedInTurns(status: number, send: (body: string) => Promise<number>, bodies: string[]): Promise<number[]> {
  const totals = bodies.map(() => 0);
  for (let round = 0; round <= ROUNDS; round += 1) {
    for (const [i, body] of bodies.entries()) {
      const started = performance.now();
      expect(await send(body)).toBe(status);
      // Round 0 warms up.
      if (round > 0) totals[i] += performance.now() - started;
    }
  }
  return totals;
}

/**
 * Parsing one body of nested arrays takes 0.25 s or more, 20 of them 5 s or more, while 20 flat
 * ones take tens of ms each: refused before parsing, both cost what reading their bytes costs.
 */
function costs(nestedMs: number, flatMs: number) {
  return { nestedMs: Math.round(nestedMs), flatMs: Math.round(flatMs), noMoreThanReading: nestedMs < 2 * flatMs + 500 };
}

describe('A request is authenticated before its body is read as JSON', () => {
  let api: ApiTestApp;

  beforeAll(async () => {
    api = await startCleanApiApp(undefined, { RPC_TRANSPORT_URL: process.env.REDIS_URL! });
  });
  afterAll(() => api?.close());

  const unsigned = async (path: string, rawBody: string) => (await api.client.post(path, undefined, { rawBody, unsigned: true })).status;

  it(`answers ${ROUNDS} unsigned 1 MB bodies of nested arrays with 401 as fast as ${ROUNDS} of flat text`, async () => {
    const [nested, flat] = await timedInTurns(401, (body) => unsigned('/actions/batch', body), [NESTED_ARRAYS, FLAT_TEXT]);
    expect(costs(nested, flat)).toMatchObject({ noMoreThanReading: true });
  });

  it('answers an unsigned or wrongly signed request 401 whatever its body, and one over the size limit 413', async () => {
    const before = await storedCounts(api.db);
    const refusal = async (path: string, rawBody: string, options: { unsigned?: boolean; secret?: string }) => {
      const { status, body } = await api.client.post(path, undefined, { rawBody, ...options });
      return { status, message: String(body.message) };
    };
    const deep = JSON.stringify({ ...httpRequestExample(), metadata: JSON.parse('{"a":'.repeat(40) + '1' + '}'.repeat(40)) });
    expect(await refusal('/actions', '{"action":', { unsigned: true })).toEqual({ status: 401, message: expect.stringMatching(/Missing header/) });
    expect(await refusal('/actions', deep, { unsigned: true })).toEqual({ status: 401, message: expect.stringMatching(/Missing header/) });
    expect(await refusal('/actions/batch', NESTED_ARRAYS, { secret: 'not-the-secret-0123456789' })).toEqual({
      status: 401,
      message: expect.stringMatching(/Signature does not match/),
    });
    expect(await refusal('/actions', `"${'x'.repeat(70 * 1024)}"`, { unsigned: true })).toEqual({
      status: 413,
      message: expect.stringMatching(/exceeds the limit of 65536 bytes/),
    });
    expect(await storedCounts(api.db)).toEqual(before);
  });

  it('parses the body of a correctly signed request only after recording its nonce: malformed JSON is 400, and its replay 401', async () => {
    const rawBody = '{"action":';
    const headers = api.client.signatureHeaders('POST', '/actions', rawBody);
    const first = await api.client.post('/actions', undefined, { rawBody, unsigned: true, headers });
    expect({ status: first.status, message: first.body.message }).toEqual({ status: 400, message: expect.stringMatching(/^Malformed JSON body/) });
    const replay = await api.client.post('/actions', undefined, { rawBody, unsigned: true, headers });
    expect({ status: replay.status, message: replay.body.message }).toEqual({ status: 401, message: expect.stringMatching(/Nonce already used/) });
  });

  describe('over RPC', () => {
    let rpc: SignedRpc;
    beforeAll(() => {
      rpc = new SignedRpc({ transport: process.env.REDIS_URL!, ...TEST_KEY, timeoutMs: 10_000 });
    });
    afterAll(() => rpc?.close());

    /** The status a message is refused with; fails the test when it is answered. */
    const refusedWith = (message: unknown) =>
      rpc.sendMessage(RPC_PATTERNS.createBatch, message).then(
        (reply) => Promise.reject(new Error(`expected a refusal, got ${JSON.stringify(reply)}`)),
        (error: unknown) => {
          if (error instanceof PunctualError) return error.statusCode;
          throw error;
        },
      );
    const unsignedText = (text: string) => rpc.message(RPC_PATTERNS.createBatch, null, { rawBody: text, unsigned: true });

    it(`answers unsigned messages 401 whatever their body: ${ROUNDS} with 1 MB of nested arrays as text as fast as ${ROUNDS} of flat text, and JSON in place of text`, async () => {
      const [nested, flat] = await timedInTurns(401, (body) => refusedWith(unsignedText(body)), [NESTED_ARRAYS, FLAT_TEXT]);
      expect(costs(nested, flat)).toMatchObject({ noMoreThanReading: true });

      const before = await storedCounts(api.db);
      expect(await refusedWith({ headers: {}, body: JSON.parse('['.repeat(100) + ']'.repeat(100)) as unknown })).toBe(401);
      // Signed headers do not help a body that is not the text they were signed over.
      const signed = rpc.message(RPC_PATTERNS.createBatch, { items: [httpRequestExample()] });
      expect(await refusedWith({ ...signed, body: JSON.parse(signed.body) as unknown })).toBe(401);
      expect(await storedCounts(api.db)).toEqual(before);
    });
  });
});
