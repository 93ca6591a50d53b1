import { INestApplicationContext } from '@nestjs/common';
import { HttpReceiver, waitUntil } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { httpRequestExample, messageText, notificationExample, storedCounts } from './support/fixtures';
import { subscribe, verifiedEvent } from './support/webhooks';
import { startWorker } from './support/worker-test-app';

const HOUR = 3_600_000;

/** Every key an object inherits (constructor, toString, valueOf, hasOwnProperty, __defineGetter__, …) but __proto__. */
const PROTOTYPE_KEYS = Object.getOwnPropertyNames(Object.prototype).filter((key) => key !== '__proto__');

/** JSON whose keys are all named like Object.prototype members (and `prototype`), at several depths and in arrays. */
function specialKeys(): Record<string, unknown> {
  const values = [1, 'text', null, true, { constructor: 'nested' }, [{ toString: 0 }]];
  const flat = Object.fromEntries([...PROTOTYPE_KEYS, 'prototype'].map((key, i) => [key, values[i % values.length]]));
  return { ...flat, nested: { ...flat, list: [flat, { valueOf: { hasOwnProperty: [] } }] } };
}

/** Keys in an order that Postgres's jsonb would change (it sorts by length, then bytes), nested and in an array too. */
function unsortedKeys(): Record<string, unknown> {
  return { bb: 1, a: 2, ccc: { zz: 1, y: 2, list: [{ b: true, a: null }] }, Z: 'upper', _: -0.5 };
}

/** JSON text keeps key order, where `toEqual` does not look. */
const text = (value: unknown) => JSON.stringify(value);

describe('data and metadata round-trip exactly', () => {
  let api: ApiTestApp;

  beforeAll(async () => {
    api = await startCleanApiApp();
  });
  afterAll(() => api.close());

  async function stored(id: string): Promise<{ data: unknown; metadata: unknown }> {
    const [row] = await api.db.query(`SELECT data, metadata FROM actions WHERE id = $1`, [id]);
    return row;
  }

  /** The answer, a later read and the stored jsonb all hold exactly what was sent. */
  async function expectExact(answered: { id: string; data: unknown; metadata: unknown }, sent: { data: unknown; metadata: unknown }) {
    expect({ data: answered.data, metadata: answered.metadata }).toEqual(sent);
    const read = (await api.client.get(`/actions/${answered.id}`)).body;
    expect({ data: read.data, metadata: read.metadata }).toEqual(sent);
    expect(await stored(answered.id)).toEqual(sent);
  }

  const httpData = () => ({ url: 'http://127.0.0.1:9/hook', headers: { constructor: 'c', toString: 't', valueOf: 'v' }, body: specialKeys() });

  it('POST /actions keeps every key, constructor, toString, valueOf and hasOwnProperty included', async () => {
    const sent = { data: httpData(), metadata: specialKeys() };
    const response = await api.client.post('/actions', httpRequestExample(HOUR, sent));
    expect(response.status).toBe(201);
    expect(Object.keys(response.body.metadata)).toEqual(expect.arrayContaining(['constructor', 'toString', 'valueOf', 'hasOwnProperty', 'prototype']));
    await expectExact(response.body, sent);
  });

  it('POST /actions/batch keeps them in every item', async () => {
    const items = [0, 1, 2].map((i) => ({ ...httpRequestExample(HOUR), data: httpData(), metadata: { ...specialKeys(), i } }));
    const response = await api.client.post('/actions/batch', { items });
    expect(response.status).toBe(201);
    for (const [i, action] of response.body.items.entries()) await expectExact(action, { data: items[i].data, metadata: items[i].metadata });
  });

  it('PATCH keeps them in the replacing data and metadata', async () => {
    const created = (await api.client.post('/actions', notificationExample(2 * HOUR))).body;
    const sent = { data: { ...notificationExample().data, subject: 'toString' }, metadata: specialKeys() };
    const response = await api.client.patch(`/actions/${created.id}`, sent);
    expect(response.status).toBe(200);
    await expectExact(response.body, sent);
  });

  it('keeps keys in the order sent, nested ones included, through create, read, list and PATCH', async () => {
    const sent = { data: { url: 'http://127.0.0.1:9/hook', body: unsortedKeys(), method: 'PUT' }, metadata: unsortedKeys() };
    const created = await api.client.post('/actions', httpRequestExample(HOUR, sent));
    expect(created.status).toBe(201);
    const id = created.body.id;
    const read = (await api.client.get(`/actions/${id}`)).body;
    const listed = ((await api.client.get('/actions?action=HTTP_REQUEST&limit=500')).body.items as { id: string }[]).find((a) => a.id === id)!;
    for (const answer of [created.body, read, listed]) expect(text({ data: answer.data, metadata: answer.metadata })).toBe(text(sent));

    const patch = { data: { ...sent.data, body: { y: 1, x: { d: 1, c: 2 } } }, metadata: { zeta: 1, alpha: 2 } };
    const patched = await api.client.patch(`/actions/${id}`, patch);
    expect(patched.status).toBe(200);
    expect(text({ data: patched.body.data, metadata: patched.body.metadata })).toBe(text(patch));
    const reread = (await api.client.get(`/actions/${id}`)).body;
    expect(text({ data: reread.data, metadata: reread.metadata })).toBe(text(patch));
  });

  it('a field named like an Object.prototype member is an unknown field, wherever it is, and never a 500', async () => {
    const before = await storedCounts(api.db);
    for (const key of [...PROTOTYPE_KEYS, 'prototype']) {
      for (const value of [1, null, {}, { constructor: 1 }]) {
        const bodies: [string, string, object][] = [
          ['POST', '/actions', { ...httpRequestExample(HOUR), [key]: value }],
          ['POST', '/actions/batch', { items: [httpRequestExample(HOUR), { ...httpRequestExample(HOUR), [key]: value }] }],
          ['POST', '/actions/batch', { items: [httpRequestExample(HOUR)], [key]: value }],
          ['PATCH', `/actions/00000000-0000-4000-8000-000000000000`, { [key]: value }],
        ];
        for (const [method, path, body] of bodies) {
          const response = await api.client.request(method, path, body);
          expect({ key, value, path, status: response.status, message: messageText(response.body) }).toEqual({
            key,
            value,
            path,
            status: 400,
            message: expect.stringContaining(`property ${key} should not exist`),
          });
        }
      }
    }
    expect(await storedCounts(api.db)).toEqual(before);
  });

  describe('and HTTP_REQUEST sends its body exactly', () => {
    let worker: INestApplicationContext;
    const receiver = new HttpReceiver();

    beforeAll(async () => {
      await receiver.start();
      worker = await startWorker();
    });
    afterAll(async () => {
      await worker.close();
      await receiver.stop();
    });

    it('with every special key', async () => {
      const body = specialKeys();
      const created = await api.client.post('/actions', {
        action: 'HTTP_REQUEST',
        executionTime: Date.now(),
        data: { url: receiver.url('/exact'), body },
      });
      expect(created.status).toBe(201);
      const call = await waitUntil('the call to arrive', () => receiver.callsTo('/exact')[0]);
      expect(JSON.parse(call.body)).toEqual(body);
    });

    it('with its keys in the order sent, and the webhook event shows the action the same way', async () => {
      const subscription = await subscribe(api.client, receiver.url('/events'), { events: ['action.succeeded'] });
      const body = unsortedKeys();
      const metadata = unsortedKeys();
      const sent = { data: { url: receiver.url('/ordered'), body }, metadata };
      const created = await api.client.post('/actions', { action: 'HTTP_REQUEST', executionTime: Date.now(), ...sent });
      expect(created.status).toBe(201);
      const call = await waitUntil('the call to arrive', () => receiver.callsTo('/ordered')[0]);
      expect(call.body).toBe(text(body));
      const event = await waitUntil('the event of its success', () =>
        receiver
          .callsTo('/events')
          .map((c) => verifiedEvent(c, subscription.secret))
          .find((e) => e.data.action.id === created.body.id),
      );
      expect(text({ data: event.data.action.data, metadata: event.data.action.metadata })).toBe(text(sent));
    });
  });
});
