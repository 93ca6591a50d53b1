import { createHash, randomUUID } from 'node:crypto';
import { RPC_PATTERNS } from '@punctual/contract';
import { CreateActionRequest, PunctualClient, SignedRpc, UntypedActionTypes } from '@punctual/client';
import { TEST_KEY } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { refusal } from './support/refusal';
import { httpRequestExample, notificationExample as untypedNotification, storedCounts } from './support/fixtures';
import { NATS_URL, ONE_TRUST_DOMAIN_NATS } from './support/nats';

const notificationExample = (...args: Parameters<typeof untypedNotification>) => untypedNotification(...args) as CreateActionRequest;

describe.each([
  ['Redis', process.env.REDIS_URL!],
  ['NATS', NATS_URL],
])('Every /actions route as a message pattern over %s (contract §7)', (_name, transportUrl) => {
  let api: ApiTestApp;
  let rpc: PunctualClient<UntypedActionTypes>;
  let raw: SignedRpc;
  let http: PunctualClient<UntypedActionTypes>;

  beforeAll(async () => {
    api = await startCleanApiApp(undefined, { RPC_TRANSPORT_URL: transportUrl, ...ONE_TRUST_DOMAIN_NATS });
    rpc = api.rpc();
    raw = new SignedRpc({ transport: transportUrl, ...TEST_KEY, timeoutMs: 5_000 });
    http = PunctualClient.overHttp<UntypedActionTypes>({ baseUrl: api.client.baseUrl, ...TEST_KEY });
  });
  afterAll(async () => {
    await raw?.close();
    await api?.close();
  });

  it('create, get, list, update, history, occurrences, preview, stats, delete: each reply is what the HTTP twin answers', async () => {
    const created = await rpc.create(notificationExample());
    expect(await http.get(created.id)).toEqual(created);
    expect(await rpc.get(created.id)).toEqual(await http.get(created.id));

    const list = { action: 'SEND_NOTIFICATION', limit: 5 };
    expect(await rpc.list(list)).toEqual(await http.list(list));
    expect((await rpc.list(list)).items.map((a) => a.id)).toContain(created.id);
    expect(await rpc.stats()).toEqual(await http.stats());

    const updated = await rpc.update(created.id, { metadata: { plan: 'pro' }, executionRemainder: 2 });
    expect(updated).toMatchObject({ id: created.id, metadata: { plan: 'pro' }, executionRemainder: 2 });
    expect(await http.get(created.id)).toEqual(updated);

    expect(await rpc.history(created.id)).toEqual(await http.history(created.id));
    expect(await rpc.occurrences(created.id, 3)).toEqual(await http.occurrences(created.id, 3));
    expect((await rpc.occurrences(created.id)).occurrences).toHaveLength(2);
    const body = notificationExample(3_600_000, { executionRemainder: 3 });
    expect(await rpc.preview(body, 2)).toEqual(await http.preview(body, 2));

    await expect(rpc.delete(created.id)).resolves.toBeUndefined();
    expect((await refusal(http.get(created.id))).statusCode).toBe(404);
  });

  it('createBatch stores every item in order, and retry puts a FAILED action back to PENDING', async () => {
    const { items } = await rpc.createBatch([httpRequestExample(), httpRequestExample(7_200_000)]);
    expect(items).toHaveLength(2);
    expect(await http.get(items[1].id)).toEqual(items[1]);

    await api.db.query(`UPDATE actions SET status = 'FAILED' WHERE id = $1`, [items[0].id]);
    const retried = await rpc.retry(items[0].id);
    expect(retried).toMatchObject({ id: items[0].id, status: 'PENDING', retryCount: 0 });
    expect(await http.get(items[0].id)).toEqual(retried);
    const again = await refusal(rpc.retry(items[0].id));
    expect(again.body).toEqual({ statusCode: 409, error: 'Conflict', message: expect.stringMatching(/PENDING/) });
  });

  it('cancel stops an action for good, with its note, as POST /actions/:id/cancel does; a second cancel is 409', async () => {
    const created = await rpc.create(httpRequestExample());
    const canceled = await rpc.cancel(created.id, { note: 'plan changed' });
    expect(canceled).toMatchObject({ id: created.id, status: 'CANCELED', cancelRequestedAt: expect.any(String) });
    expect(await http.get(created.id)).toEqual(canceled);
    expect((await rpc.history(created.id)).at(-1)).toMatchObject({ from: 'PENDING', to: 'CANCELED', note: 'canceled: plan changed' });
    const again = await refusal(rpc.cancel(created.id));
    expect(again.body).toEqual({ statusCode: 409, error: 'Conflict', message: expect.stringMatching(/CANCELED; a finished action cannot be canceled/) });
    const unknownField = await refusal(raw.send(RPC_PATTERNS.cancel, { id: created.id, reason: 'x' }));
    expect(unknownField.statusCode).toBe(400);
  });

  it('pause and resume hold and release an action, as their HTTP twins do; a finished action is 409, an unknown field 400', async () => {
    const created = await rpc.create(httpRequestExample());
    const paused = await rpc.pause(created.id, { note: 'holiday' });
    expect(paused).toMatchObject({ id: created.id, status: 'PENDING', paused: true });
    expect(await http.get(created.id)).toEqual(paused);
    expect((await rpc.history(created.id)).at(-1)).toMatchObject({ from: 'PENDING', to: 'PENDING', note: 'paused: holiday' });
    const resumed = await rpc.resume(created.id);
    expect(resumed).toMatchObject({ id: created.id, status: 'PENDING', paused: false });
    expect(await http.get(created.id)).toEqual(resumed);
    expect((await refusal(raw.send(RPC_PATTERNS.pause, { id: created.id, reason: 'x' }))).statusCode).toBe(400);
    expect((await refusal(raw.send(RPC_PATTERNS.resume, { id: created.id, note: 'x' }))).statusCode).toBe(400);
    await rpc.cancel(created.id);
    const refused = await refusal(rpc.pause(created.id));
    expect(refused.body).toEqual({ statusCode: 409, error: 'Conflict', message: expect.stringMatching(/CANCELED; a finished action cannot be paused/) });
  });

  it('skip moves a daily action past its next occurrences, as its HTTP twin does; a one-off action is 409, a bad count 400', async () => {
    const daily = await rpc.create(notificationExample(86_400_000));
    const skipped = await rpc.skip(daily.id, { count: 2 });
    expect(Date.parse(skipped.executionTime) - Date.parse(daily.executionTime)).toBe(2 * 86_400_000);
    expect(skipped.executionRemainder).toBe(daily.executionRemainder);
    expect(await http.get(daily.id)).toEqual(skipped);
    expect((await refusal(raw.send(RPC_PATTERNS.skip, { id: daily.id, count: 0 }))).statusCode).toBe(400);
    const oneOff = await rpc.create(httpRequestExample());
    expect((await refusal(rpc.skip(oneOff.id))).statusCode).toBe(409);
  });

  it('calendars: put, get, list (a page at a time) and delete reply as their HTTP twins; a bad name or date is 400, a named calendar 409, an unknown one 404', async () => {
    const put = await rpc.calendars.put('rpc-holidays', { dates: ['2031-12-25', '2031-01-01'], description: 'over RPC' });
    expect(put).toMatchObject({ name: 'rpc-holidays', dates: ['2031-01-01', '2031-12-25'], description: 'over RPC' });
    expect(await rpc.calendars.get('rpc-holidays')).toEqual(await http.calendars.get('rpc-holidays'));
    expect(await rpc.calendars.list()).toEqual(await http.calendars.list());
    await rpc.calendars.put('rpc-later', { dates: [] });
    const first = await rpc.calendars.list({ limit: 1 });
    expect(first).toEqual(await http.calendars.list({ limit: 1 }));
    expect(first.items.map((c) => c.name)).toEqual(['rpc-holidays']);
    expect(await rpc.calendars.list({ limit: 1, cursor: first.nextCursor! })).toEqual(await http.calendars.list({ limit: 1, cursor: first.nextCursor! }));
    expect((await refusal(raw.send(RPC_PATTERNS.listCalendars, { limit: 101 }))).statusCode).toBe(400);
    expect((await refusal(raw.send(RPC_PATTERNS.listCalendars, { cursor: 'forged' }))).body.message).toMatch(/cursor is not valid/);
    expect((await refusal(raw.send(RPC_PATTERNS.listCalendars, { owner: 'me' }))).statusCode).toBe(400);
    await rpc.calendars.delete('rpc-later');
    expect((await refusal(raw.send(RPC_PATTERNS.putCalendar, { name: 'bad name', dates: [] }))).statusCode).toBe(400);
    expect((await refusal(raw.send(RPC_PATTERNS.putCalendar, { name: 'x', dates: ['2031-02-30'] }))).statusCode).toBe(400);
    expect((await refusal(raw.send(RPC_PATTERNS.getCalendar, { name: 'rpc-holidays', extra: 1 }))).statusCode).toBe(400);
    const daily = await rpc.create({ ...notificationExample(86_400_000), calendar: 'rpc-holidays' });
    expect((await refusal(rpc.calendars.delete('rpc-holidays'))).body).toMatchObject({
      statusCode: 409,
      message: expect.stringMatching(/named by 1 action/),
    });
    await rpc.delete(daily.id);
    await rpc.calendars.delete('rpc-holidays');
    expect((await refusal(rpc.calendars.get('rpc-holidays'))).statusCode).toBe(404);
    expect((await refusal(rpc.calendars.delete('rpc-holidays'))).statusCode).toBe(404);
  });

  it('a create repeated with its Idempotency-Key answers the first action; another body with it is 422', async () => {
    const key = `rpc-${randomUUID()}`;
    const body = httpRequestExample();
    const first = await rpc.create(body, { idempotencyKey: key });
    expect(await rpc.create(body, { idempotencyKey: key })).toEqual(first);
    const before = await storedCounts(api.db);
    expect((await refusal(rpc.create({ ...body, metadata: { other: true } }, { idempotencyKey: key }))).statusCode).toBe(422);
    expect(await storedCounts(api.db)).toEqual(before);
  });

  it.each([
    ['an unknown field', { ...httpRequestExample(), colour: 'red' }],
    ['an unknown type', { ...httpRequestExample(), action: 'NOPE' }],
    ['data that does not fit the type', { ...httpRequestExample(), data: { url: 'ftp://x' } }],
    ['a time out of range', { ...httpRequestExample(), executionTime: '10000-01-01T00:00:00Z' }],
    ['U+0000 in metadata', { ...httpRequestExample(), metadata: { note: 'a\u0000b' } }],
  ])('%s → 400 with the body HTTP answers, and nothing stored', async (_case, body) => {
    const before = await storedCounts(api.db);
    const overHttp = await api.client.post('/actions', body);
    const overRpc = await refusal(rpc.create(body));
    expect(overHttp.status).toBe(400);
    expect(overRpc.body).toEqual(overHttp.body);
    expect(await storedCounts(api.db)).toEqual(before);
  });

  it('refuses executionTime in seconds on create, batch, update and preview, naming the field and the unit, storing nothing', async () => {
    const existing = await rpc.create(notificationExample(7_200_000));
    const before = { counts: await storedCounts(api.db), action: await rpc.get(existing.id) };
    const inSeconds = { ...httpRequestExample(), executionTime: Math.floor((Date.now() + 3_600_000) / 1000) };
    const unit = /executionTime must be epoch milliseconds, not seconds/;
    const refusals = [
      await refusal(rpc.create(inSeconds)),
      await refusal(rpc.createBatch([httpRequestExample(), inSeconds])),
      await refusal(rpc.update(existing.id, { executionTime: inSeconds.executionTime })),
      await refusal(rpc.preview(inSeconds, 2)),
    ];
    expect(refusals.map((refused) => [refused.statusCode, refused.problems.join('\n')])).toEqual([
      [400, expect.stringMatching(new RegExp(`^${unit.source}`, 'm'))],
      [400, expect.stringMatching(new RegExp(`^items\\.1\\.${unit.source}`, 'm'))],
      [400, expect.stringMatching(new RegExp(`^${unit.source}`, 'm'))],
      [400, expect.stringMatching(new RegExp(`^${unit.source}`, 'm'))],
    ]);
    expect({ counts: await storedCounts(api.db), action: await rpc.get(existing.id) }).toEqual(before);
    // The same time in milliseconds is accepted.
    expect(await rpc.create({ ...inSeconds, executionTime: inSeconds.executionTime * 1000 })).toMatchObject({
      executionTime: new Date(inSeconds.executionTime * 1000).toISOString(),
    });
  });

  it('a refused create lists every problem of its envelope and its data in one answer, word for word as over HTTP', async () => {
    const before = await storedCounts(api.db);
    const { executionTime, ...rest } = httpRequestExample();
    const body = {
      ...rest,
      executeAt: executionTime,
      data: { url: 'ftp://example.com' },
      retryPolicy: { maxRetries: 30, backoff: { type: 'fixed', delayMs: 5 } },
    };
    const problems = [
      'property executeAt should not exist; did you mean executionTime?',
      'executionTime is required',
      'retryPolicy.maxRetries must be an integer from 0 to 25',
      'retryPolicy.backoff.delayMs must be an integer of ms from 100 to 604800000 (7 days)',
      'data.url: url must be an http or https URL',
    ];
    expect((await refusal(raw.send(RPC_PATTERNS.create, body))).body).toEqual({ statusCode: 400, error: 'Bad Request', message: problems });
    expect((await refusal(raw.send(RPC_PATTERNS.createBatch, { items: [httpRequestExample(), body] }))).body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: problems.map((problem) => `items.1.${problem}`),
    });
    expect((await api.client.post('/actions', body)).body).toEqual({ statusCode: 400, error: 'Bad Request', message: problems });
    expect(await storedCounts(api.db)).toEqual(before);
  });

  it('refuses what HTTP refuses before validation: malformed JSON, JSON nested too deep, a body over 64 KiB (413)', async () => {
    const before = await storedCounts(api.db);
    expect((await refusal(raw.send(RPC_PATTERNS.create, null, { rawBody: '{"action":' }))).body).toMatchObject({
      statusCode: 400,
      message: expect.stringMatching(/^Malformed JSON body/),
    });
    const deep = { ...httpRequestExample(), metadata: JSON.parse('{"a":'.repeat(40) + '1' + '}'.repeat(40)) };
    expect((await refusal(rpc.create(deep))).body).toEqual((await api.client.post('/actions', deep)).body);
    const big = { ...httpRequestExample(), metadata: { text: 'x'.repeat(70 * 1024) } };
    const tooLarge = await refusal(rpc.create(big));
    expect(tooLarge.body).toEqual((await api.client.post('/actions', big)).body);
    expect(tooLarge.statusCode).toBe(413);
    // Over NATS the client says so itself: the server's max_payload (1 MB by default) keeps the message from being sent.
    const batch = { items: Array.from({ length: 200 }, () => ({ ...httpRequestExample(), metadata: { text: 'x'.repeat(6000) } })) };
    expect((await refusal(raw.send(RPC_PATTERNS.createBatch, batch))).statusCode).toBe(413);
    expect(await storedCounts(api.db)).toEqual(before);
  });

  it('ids, envelopes and missing actions are answered as over HTTP: 400, 400, 404', async () => {
    expect((await refusal(rpc.get('not-a-uuid'))).body).toEqual((await api.client.get('/actions/not-a-uuid')).body);
    expect((await refusal(raw.send(RPC_PATTERNS.get, { id: randomUUID(), extra: 1 }))).body).toMatchObject({
      statusCode: 400,
      message: ['property extra should not exist'],
    });
    const missing = randomUUID();
    expect((await refusal(rpc.get(missing))).body).toEqual((await api.client.get(`/actions/${missing}`)).body);
    expect((await refusal(rpc.update(missing, { colour: 'red' } as never))).body).toEqual(
      (await api.client.patch(`/actions/${missing}`, { colour: 'red' })).body,
    );
  });

  describe('signatures (byte for byte over the body text, METHOD RPC, PATH the pattern)', () => {
    const body = () => JSON.stringify(httpRequestExample());

    async function expectUnauthorized(message: unknown, pattern: string = RPC_PATTERNS.create): Promise<string> {
      const before = await storedCounts(api.db);
      const refused = await refusal(raw.sendMessage(pattern, message));
      expect(refused.statusCode).toBe(401);
      expect(await storedCounts(api.db)).toEqual(before);
      return refused.problems.join('\n');
    }

    it('an unsigned message, or one that is not { headers, body } → 401', async () => {
      expect(await expectUnauthorized(raw.message(RPC_PATTERNS.create, null, { rawBody: body(), unsigned: true }))).toMatch(
        /Missing header X-Punctual-Key/,
      );
      expect(await expectUnauthorized(JSON.parse(body()))).toMatch(/\{ headers, body \}/);
    });

    it('a wrong secret, a body re-serialised differently, or a signature for another pattern → 401', async () => {
      expect(await expectUnauthorized(raw.message(RPC_PATTERNS.create, null, { rawBody: body(), secret: 'wrong-secret-0123456789' }))).toMatch(
        /Signature does not match/,
      );
      const signed = raw.message(RPC_PATTERNS.create, null, { rawBody: body() });
      const resent = JSON.stringify(JSON.parse(signed.body), null, 1);
      // The answer names what the server signed, as over HTTP: the pattern stands for the path.
      expect(await expectUnauthorized({ ...signed, body: resent })).toBe(
        `Signature does not match for key '${TEST_KEY.keyId}': sign TIMESTAMP\\nNONCE\\nMETHOD\\nPATH_WITH_QUERY\\nRAW_BODY with the key's secret (HMAC-SHA256, hex). ` +
          `The server saw METHOD RPC, PATH_WITH_QUERY "${RPC_PATTERNS.create}" and a RAW_BODY of ${Buffer.byteLength(resent)} bytes with SHA-256 ${createHash('sha256').update(resent).digest('hex')}`,
      );
      expect(await expectUnauthorized(raw.message(RPC_PATTERNS.createBatch, null, { rawBody: body() }))).toMatch(/Signature does not match/);
    });

    it('a replayed message → 401, and only the first is stored', async () => {
      const message = raw.message(RPC_PATTERNS.create, null, { rawBody: body() });
      const first = await raw.sendMessage<{ id: string }>(RPC_PATTERNS.create, message);
      expect(await expectUnauthorized(message)).toMatch(/Nonce already used/);
      expect((await http.get(first.id)).id).toBe(first.id);
    });

    it('a body that is not text → 401: only text carries a signature', async () => {
      const message = { ...raw.message(RPC_PATTERNS.create, null, { rawBody: body() }), body: JSON.parse(body()) };
      expect(await expectUnauthorized(message)).toMatch(/JSON text/);
    });
  });
});
