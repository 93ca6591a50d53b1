import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { httpRequestExample, messageText, notificationExample, storedCounts } from './support/fixtures';
import { queuedJobs } from './support/queue-state';

describe('Creating actions (POST /actions, POST /actions/batch)', () => {
  let api: ApiTestApp;

  beforeAll(async () => {
    api = await startCleanApiApp();
  });
  afterAll(() => api.close());

  /** Runs a request that must be refused and checks that it stored and queued nothing. */
  async function expectRejected(send: () => Promise<{ status: number; body: any }>, status: number, message: RegExp) {
    const before = await storedCounts(api.db);
    const jobsBefore = await queuedJobs(api.app);
    const response = await send();
    expect(response.status).toBe(status);
    expect(messageText(response.body)).toMatch(message);
    expect(await storedCounts(api.db)).toEqual(before);
    expect(await queuedJobs(api.app)).toBe(jobsBefore);
  }

  it('creates the contract example and returns every field', async () => {
    const body = notificationExample(3_600_000, { metadata: { customer: 42 } });
    const response = await api.client.post('/actions', body);
    expect(response.status).toBe(201);
    const action = response.body;
    expect(action).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      action: 'SEND_NOTIFICATION',
      status: 'PENDING',
      executionTime: body.executionTime,
      data: body.data,
      metadata: { customer: 42 },
      repeat: true,
      frequency: 'DAILY',
      cron: null,
      timezone: 'UTC',
      executionRemainder: 5,
      endAt: null,
      misfirePolicy: 'RUN_ONCE',
      retryPolicy: null,
      callbackUrl: null,
      retryCount: 0,
      lastError: null,
      occurrence: 1,
      nextAttemptAt: body.executionTime,
      cancelRequestedAt: null,
      paused: false,
      jitterMs: null,
      dstPolicy: { gap: 'shift', overlap: 'first' },
      calendar: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(new Date(action.createdAt).toISOString()).toBe(action.createdAt);
    const read = await api.client.get(`/actions/${action.id}`);
    expect(read.body).toEqual(action);
  });

  it('queues a delayed job for an action due within the horizon, and none for a far-future one', async () => {
    const before = await queuedJobs(api.app);
    expect((await api.client.post('/actions', httpRequestExample(60_000))).status).toBe(201);
    expect(await queuedJobs(api.app)).toBe(before + 1);
    expect((await api.client.post('/actions', httpRequestExample(86_400_000))).status).toBe(201);
    expect(await queuedJobs(api.app)).toBe(before + 1);
  });

  it('accepts executionTime as epoch milliseconds and defaults the optional fields', async () => {
    const when = Date.UTC(2031, 0, 15, 8, 35, 17, 120);
    const response = await api.client.post('/actions', { action: 'HTTP_REQUEST', executionTime: when, data: { url: 'https://example.com/x' } });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      executionTime: '2031-01-15T08:35:17.120Z',
      metadata: {},
      repeat: false,
      frequency: null,
      executionRemainder: null,
      misfirePolicy: null,
    });
  });

  it('returns frequency and executionRemainder as null for a one-off action even when given', async () => {
    const response = await api.client.post('/actions', httpRequestExample(60_000, { frequency: 'DAILY', executionRemainder: 3 }));
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ repeat: false, frequency: null, executionRemainder: null });
  });

  it('converts an ISO time with an offset to UTC', async () => {
    const response = await api.client.post('/actions', httpRequestExample(0, { executionTime: '2031-06-01T10:00:00+02:00' }));
    expect(response.status).toBe(201);
    expect(response.body.executionTime).toBe('2031-06-01T08:00:00.000Z');
  });

  describe('rejects, storing and queueing nothing', () => {
    it.each([
      ['an unknown field', { ...httpRequestExample(), status: 'COMPLETED' }, /property status should not exist/],
      ['a missing action', { ...httpRequestExample(), action: undefined }, /^action is required$/],
      ['a missing executionTime', { ...httpRequestExample(), executionTime: undefined }, /^executionTime is required$/],
      ['a zone-less executionTime', httpRequestExample(0, { executionTime: '2031-06-01T10:00:00' }), /ISO-8601 string with a zone/],
      ['executionTime of the wrong type', httpRequestExample(0, { executionTime: true }), /executionTime must be/],
      ['data that is not an object', httpRequestExample(0, { data: 'x' }), /data must be an object/],
      ['metadata that is not an object', httpRequestExample(0, { metadata: [1] }), /metadata must be an object/],
      ['repeat that is not a boolean', httpRequestExample(0, { repeat: 'yes' }), /repeat must be a boolean/],
      ['repeat without frequency', notificationExample(0, { frequency: undefined }), /^frequency is required when repeat is true$/],
      [
        'repeat without executionRemainder',
        notificationExample(0, { executionRemainder: undefined }),
        /^executionRemainder is required when repeat is true \(optional with cron: absent means no limit\)$/,
      ],
      ['executionRemainder 0', notificationExample(0, { executionRemainder: 0 }), /executionRemainder must be an integer ≥ 1/],
      ['an unknown frequency', notificationExample(0, { frequency: 'YEARLY' }), /frequency must be one of TEN_MINS, HOURLY, DAILY, WEEKLY, MONTHLY/],
      ['an unknown misfirePolicy', notificationExample(0, { misfirePolicy: 'LATER' }), /misfirePolicy must be one of RUN_ONCE, RUN_ALL, SKIP/],
      [
        'an unknown action type',
        httpRequestExample(0, { action: 'FAX' }),
        /Unknown action type "FAX". Known types: GRPC, HTTP_REQUEST, MESSAGE, SEND_NOTIFICATION/,
      ],
      ['an HTTP_REQUEST without url', httpRequestExample(0, { data: { method: 'POST' } }), /data.url: url must be an http or https URL/],
      ['an HTTP_REQUEST to ftp', httpRequestExample(0, { data: { url: 'ftp://x.org/a' } }), /data.url/],
      [
        'an HTTP_REQUEST with an unknown data field',
        httpRequestExample(0, { data: { url: 'http://a.io', verb: 'GET' } }),
        /data.verb: property verb should not exist/,
      ],
      [
        'an SMS without mobile',
        notificationExample(0, { data: { subject: 'S', name: 'N', templateType: 'USER_LATE_PAYMENT_NOTIFICATION', notificationType: 'SMS' } }),
        /data.mobile: mobile must be 6 to 15 digits/,
      ],
      [
        'an EMAIL with a bad address',
        notificationExample(0, {
          data: { email: 'nope', subject: 'S', name: 'N', templateType: 'USER_LATE_PAYMENT_NOTIFICATION', notificationType: 'EMAIL' },
        }),
        /data.email: email must be an email address/,
      ],
      [
        'an unknown template',
        notificationExample(0, { data: { mobile: '60123456789', subject: 'S', name: 'N', templateType: 'NOPE', notificationType: 'SMS' } }),
        /data.templateType: templateType must be one of/,
      ],
    ])('%s → 400', async (_name, body, message) => {
      await expectRejected(() => api.client.post('/actions', body), 400, message);
    });

    it('malformed JSON → 400', async () => {
      await expectRejected(() => api.client.post('/actions', undefined, { rawBody: '{"action": "HTTP_REQUEST",' }), 400, /Malformed JSON/);
    });

    it('a body over 64 KiB → 413', async () => {
      const body = httpRequestExample(0, { metadata: { blob: 'x'.repeat(70 * 1024) } });
      await expectRejected(() => api.client.post('/actions', body), 413, /exceeds the limit/);
    });

    it('an unsigned request → 401', async () => {
      await expectRejected(() => api.client.post('/actions', httpRequestExample(), { unsigned: true }), 401, /X-Punctual-Key/);
    });
  });

  describe('Idempotency-Key', () => {
    it('answers a repeat with 200 and the first action', async () => {
      const headers = { 'Idempotency-Key': `repeat-${Date.now()}` };
      const body = httpRequestExample();
      const first = await api.client.post('/actions', body, { headers });
      const second = await api.client.post('/actions', body, { headers });
      expect(first.status).toBe(201);
      expect(second.status).toBe(200);
      expect(second.body).toEqual(first.body);
    });

    it('20 parallel creates with one key store exactly one action', async () => {
      const key = `parallel-${Date.now()}`;
      const before = await storedCounts(api.db);
      const body = httpRequestExample();
      const responses = await Promise.all(Array.from({ length: 20 }, () => api.client.post('/actions', body, { headers: { 'Idempotency-Key': key } })));
      const ids = new Set(responses.map((r) => r.body.id));
      expect(ids.size).toBe(1);
      expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
      expect(responses.filter((r) => r.status === 200)).toHaveLength(19);
      expect((await storedCounts(api.db)).actions).toBe(before.actions + 1);
    });

    it('scopes keys per API key', async () => {
      const headers = { 'Idempotency-Key': `scoped-${Date.now()}` };
      const first = await api.client.post('/actions', httpRequestExample(), { headers });
      const other = await api.client.post('/actions', httpRequestExample(), { headers, keyId: 'rotated-key', secret: 'rotated-secret-9876543210' });
      expect(other.status).toBe(201);
      expect(other.body.id).not.toBe(first.body.id);
    });

    it('creates anew once the key is older than 24 h', async () => {
      const headers = { 'Idempotency-Key': `expired-${Date.now()}` };
      const first = await api.client.post('/actions', httpRequestExample(), { headers });
      await api.db.query(`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = $1`, [headers['Idempotency-Key']]);
      const second = await api.client.post('/actions', httpRequestExample(), { headers });
      expect(second.status).toBe(201);
      expect(second.body.id).not.toBe(first.body.id);
    });

    it('rejects a malformed key', async () => {
      await expectRejected(
        () => api.client.post('/actions', httpRequestExample(), { headers: { 'Idempotency-Key': 'x'.repeat(256) } }),
        400,
        /Idempotency-Key/,
      );
    });
  });

  describe('batch', () => {
    it('creates every item in order', async () => {
      const items = Array.from({ length: 100 }, (_, i) => httpRequestExample(60_000 + i, { metadata: { i } }));
      const response = await api.client.post('/actions/batch', { items });
      expect(response.status).toBe(201);
      expect(response.body.items.map((a: any) => a.metadata.i)).toEqual(items.map((_, i) => i));
      expect(response.body.items.every((a: any) => a.status === 'PENDING')).toBe(true);
    });

    it('answers each item as it reads back, whatever fields it uses', async () => {
      const items = [
        httpRequestExample(60_000, { metadata: { nested: { list: [1, 'two', null], flag: false } } }),
        httpRequestExample(120_000, {
          repeat: true,
          cron: '0 9 * * MON-FRI',
          timezone: 'Europe/Paris',
          endAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
          retryPolicy: { maxRetries: 3, backoff: { type: 'fixed', delayMs: 1000 } },
          callbackUrl: 'https://example.com/done',
          misfirePolicy: 'SKIP',
        }),
        notificationExample(3_600_000),
      ];
      const response = await api.client.post('/actions/batch', { items });
      expect(response.status).toBe(201);
      for (const created of response.body.items) expect((await api.client.get(`/actions/${created.id}`)).body).toEqual(created);
    });

    it('one bad item among 100 → 400 naming its index, nothing stored', async () => {
      const items = Array.from({ length: 100 }, () => httpRequestExample());
      items[57] = httpRequestExample(0, { data: { url: 'not a url' } });
      await expectRejected(() => api.client.post('/actions/batch', { items }), 400, /items\.57\.data\.url/);
    });

    it('names each bad item of a structurally invalid batch', async () => {
      const items = [httpRequestExample(), httpRequestExample(0, { executionTime: 'soon' }), httpRequestExample(0, { action: 'FAX' })];
      const before = await storedCounts(api.db);
      const first = await api.client.post('/actions/batch', { items });
      expect(first.status).toBe(400);
      expect(messageText(first.body)).toMatch(/items\.1\.executionTime/);
      items[1] = httpRequestExample();
      await expectRejected(() => api.client.post('/actions/batch', { items }), 400, /items\.2\.action: Unknown action type "FAX"/);
      expect(await storedCounts(api.db)).toEqual(before);
    });

    it('more than 1000 items → 400', async () => {
      const items = Array.from({ length: 1001 }, () => httpRequestExample(3_600_000, { data: { url: 'http://a.io' } }));
      await expectRejected(() => api.client.post('/actions/batch', { items }), 400, /items must contain no more than 1000 elements/);
    });

    it('a batch body over 1 MiB → 413; between 64 KiB and 1 MiB is fine', async () => {
      const big = (n: number) => ({ items: Array.from({ length: n }, () => httpRequestExample(60_000, { metadata: { pad: 'x'.repeat(1000) } })) });
      expect((await api.client.post('/actions/batch', big(200))).status).toBe(201);
      await expectRejected(() => api.client.post('/actions/batch', big(1100)), 413, /exceeds the limit/);
    });
  });
});
