import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { httpRequestExample, messageText, storedCounts } from './support/fixtures';
import { queuedJobs } from './support/queue-state';

const HOUR = 3_600_000;

describe('Idempotency-Key: the same body repeats, another body is refused', () => {
  let api: ApiTestApp;
  let keyNumber = 0;
  const freshKey = () => ({ 'Idempotency-Key': `idem-${Date.now()}-${(keyNumber += 1)}` });

  beforeAll(async () => {
    api = await startCleanApiApp();
  });
  afterAll(() => api.close());

  it('a repeat with the same JSON written differently (key order, whitespace) answers 200 with the first action', async () => {
    const headers = freshKey();
    const body = {
      action: 'HTTP_REQUEST',
      executionTime: Date.now() + HOUR,
      data: { url: 'http://127.0.0.1:9/a', body: { x: 1, y: [1, 2] } },
      metadata: { a: 1, b: 2 },
    };
    const first = await api.client.post('/actions', body, { headers });
    const reordered = `{ "metadata": {"b":2,"a":1},\n  "data": {"body": {"y": [1, 2], "x": 1}, "url": "http://127.0.0.1:9/a"},  "executionTime": ${body.executionTime}, "action": "HTTP_REQUEST" }`;
    const second = await api.client.post('/actions', undefined, { headers, rawBody: reordered });
    expect([first.status, second.status]).toEqual([201, 200]);
    expect(second.body).toEqual(first.body);
  });

  it('a repeat with a different body answers 422, creates and queues nothing, and the key keeps its first action', async () => {
    const headers = freshKey();
    const body = httpRequestExample(HOUR);
    const first = await api.client.post('/actions', body, { headers });
    expect(first.status).toBe(201);
    const before = { counts: await storedCounts(api.db), jobs: await queuedJobs(api.app) };

    for (const changed of [
      { ...body, metadata: { other: true } },
      { ...body, executionTime: body.executionTime + 1 },
      { ...body, data: { ...body.data, method: 'PUT' } },
    ]) {
      const refused = await api.client.post('/actions', changed, { headers });
      expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 422, error: 'Unprocessable Entity' });
      expect(messageText(refused.body)).toMatch(new RegExp(`Idempotency-Key "${headers['Idempotency-Key']}" was already used with a different body`));
    }
    expect(await storedCounts(api.db)).toEqual(before.counts);
    expect(await queuedJobs(api.app)).toBe(before.jobs);

    const repeat = await api.client.post('/actions', body, { headers });
    expect(repeat.status).toBe(200);
    expect(repeat.body.id).toBe(first.body.id);
  });

  it('two racing creates with one key and different bodies: one 201, the other 422, one action stored', async () => {
    for (let round = 0; round < 5; round += 1) {
      const headers = freshKey();
      const before = await storedCounts(api.db);
      const [a, b] = await Promise.all([
        api.client.post('/actions', httpRequestExample(HOUR, { metadata: { racer: 'a' } }), { headers }),
        api.client.post('/actions', httpRequestExample(HOUR, { metadata: { racer: 'b' } }), { headers }),
      ]);
      expect([a.status, b.status].sort()).toEqual([201, 422]);
      const after = await storedCounts(api.db);
      expect(after).toEqual({ actions: before.actions + 1, history: before.history + 1, keys: before.keys + 1 });
      const [winner] = [a, b].filter((r) => r.status === 201);
      const [stored] = await api.db.query(`SELECT action_id FROM idempotency_keys WHERE key = $1`, [headers['Idempotency-Key']]);
      expect(stored.action_id).toBe(winner.body.id);
    }
  });

  it('ten racing creates with one key and the same body: one 201, nine 200 with the same action', async () => {
    const headers = freshKey();
    const body = httpRequestExample(HOUR);
    const responses = await Promise.all(Array.from({ length: 10 }, () => api.client.post('/actions', body, { headers })));
    expect(responses.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(responses.map((r) => r.body.id)).size).toBe(1);
  });

  it('a key stored before bodies were hashed keeps answering with its action until it expires', async () => {
    const headers = freshKey();
    const first = await api.client.post('/actions', httpRequestExample(HOUR), { headers });
    await api.db.query(`UPDATE idempotency_keys SET request_hash = NULL WHERE key = $1`, [headers['Idempotency-Key']]);
    const other = await api.client.post('/actions', httpRequestExample(2 * HOUR), { headers });
    expect(other.status).toBe(200);
    expect(other.body.id).toBe(first.body.id);
  });

  it('an expired key takes the new body: a later repeat of the old body is refused', async () => {
    const headers = freshKey();
    const oldBody = httpRequestExample(HOUR);
    await api.client.post('/actions', oldBody, { headers });
    await api.db.query(`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = $1`, [headers['Idempotency-Key']]);
    const newBody = httpRequestExample(2 * HOUR);
    expect((await api.client.post('/actions', newBody, { headers })).status).toBe(201);
    expect((await api.client.post('/actions', oldBody, { headers })).status).toBe(422);
    expect((await api.client.post('/actions', newBody, { headers })).status).toBe(200);
  });
});
