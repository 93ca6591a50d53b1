import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { httpRequestExample, messageText, notificationExample, storedCounts } from './support/fixtures';
import { queuedJobs } from './support/queue-state';

const HOUR = 3_600_000;
const INT32_OVERFLOW = 2 ** 31;

/** `levels` objects nested in one another: `{ "a": { "a": … "leaf" } }`. */
function nested(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < levels; level += 1) value = { a: value };
  return value;
}

const cursor = (position: unknown) => Buffer.from(JSON.stringify(position)).toString('base64url');
const SOME_UUID = '2f1b6a8e-4c1d-4b8e-9a57-4f6a1c2d9e10';

/** One request that must be refused, and what the answer must say. */
interface Case {
  name: string;
  /** Given the id of an existing PENDING action, the request to send. */
  send: (api: ApiTestApp, id: string) => Promise<{ status: number; body: any }>;
  status: number;
  message: RegExp;
}

/** A body sent as these exact bytes: JSON that JavaScript could not write back as it is (1e400, 10,000 levels). */
class Raw {
  constructor(readonly text: string) {}
}
const send = (api: ApiTestApp, method: string, path: string, body: unknown) =>
  body instanceof Raw ? api.client.request(method, path, undefined, { rawBody: body.text }) : api.client.request(method, path, body);

const create = (name: string, body: unknown, message: RegExp): Case => ({
  name: `POST /actions: ${name}`,
  send: (api) => send(api, 'POST', '/actions', body),
  status: 400,
  message,
});
/** The bad item goes third in a batch of otherwise good ones, so the message must name index 2. */
const batchItem = (name: string, item: unknown, message: RegExp): Case => ({
  name: `POST /actions/batch: ${name}`,
  send: (api) => api.client.post('/actions/batch', { items: [httpRequestExample(), httpRequestExample(), item] }),
  status: 400,
  message,
});
const patch = (name: string, body: unknown, message: RegExp): Case => ({
  name: `PATCH /actions/:id: ${name}`,
  send: (api, id) => send(api, 'PATCH', `/actions/${id}`, body),
  status: 400,
  message,
});
const preview = (name: string, body: unknown, message: RegExp): Case => ({
  name: `POST /actions/preview: ${name}`,
  send: (api) => send(api, 'POST', '/actions/preview', body),
  status: 400,
  message,
});
const list = (query: string, message: RegExp): Case => ({
  name: `GET /actions?${query}`,
  send: (api) => api.client.get(`/actions?${query}`),
  status: 400,
  message,
});
const history = (query: string, message: RegExp): Case => ({
  name: `GET /actions/:id/history?${query}`,
  send: (api, id) => api.client.get(`/actions/${id}/history?${query}`),
  status: 400,
  message,
});

const raw = (text: string) => new Raw(text);

/** An hour ahead in seconds, where milliseconds are meant: it would be 1970-01-21, and run at once. */
const SECONDS_AN_HOUR_AHEAD = Math.floor((Date.now() + HOUR) / 1000);
const IN_SECONDS = /^executionTime must be epoch milliseconds, not seconds: -?\d+ is below 100000000000 \(before 1973-03-03T09:46:40.000Z\)/m;
const ITEM_IN_SECONDS = /^items\.2\.executionTime must be epoch milliseconds, not seconds/m;
/** A time in epoch milliseconds for the bodies this spec writes as raw JSON. */
const LATER = Date.now() + HOUR;

const CASES: Case[] = [
  // null where the stored column cannot be null
  ...['action', 'executionTime', 'data'].map((field) =>
    create(`${field}: null`, httpRequestExample(HOUR, { [field]: null }), new RegExp(`^${field} must`, 'm')),
  ),
  ...['metadata', 'repeat', 'misfirePolicy', 'frequency', 'executionRemainder'].map((field) =>
    create(`${field}: null`, notificationExample(HOUR, { [field]: null }), new RegExp(`^${field} must not be null`, 'm')),
  ),
  create('frequency: null on a one-off action', httpRequestExample(HOUR, { frequency: null }), /^frequency must not be null/m),
  // seconds where milliseconds are meant: any number below 100,000,000,000 (before 1973-03-03)
  ...[SECONDS_AN_HOUR_AHEAD, 0, -1, 99_999_999_999].map((time) =>
    create(`executionTime ${time} (seconds, or before 1973)`, httpRequestExample(HOUR, { executionTime: time }), IN_SECONDS),
  ),
  create('endAt in seconds', notificationExample(HOUR, { endAt: SECONDS_AN_HOUR_AHEAD + 86_400 }), /^endAt must be epoch milliseconds, not seconds/m),
  // times outside years 1970–9999
  ...[Date.UTC(10000, 0, 1), 8.64e15, '0000-01-01T00:00:00Z', '+099999-01-01T00:00:00Z', '1969-12-31T23:59:59.999Z'].map((time) =>
    create(
      `executionTime ${JSON.stringify(time)}`,
      httpRequestExample(HOUR, { executionTime: time }),
      /executionTime must be .* between 1970-01-01T00:00:00.000Z and 9999-12-31/,
    ),
  ),
  create('executionTime on a day the month does not have', httpRequestExample(HOUR, { executionTime: '2031-02-30T10:00:00Z' }), /executionTime must be/),
  create('executionTime as an object with a "constructor" key', httpRequestExample(HOUR, { executionTime: { constructor: 1 } }), /executionTime must be/),
  // integers beyond 2^31 − 1
  create(
    'executionRemainder 2^31',
    notificationExample(HOUR, { executionRemainder: INT32_OVERFLOW }),
    /executionRemainder must be an integer ≥ 1 \(at most 2147483647\)/,
  ),
  create('executionRemainder 1e300', notificationExample(HOUR, { executionRemainder: 1e300 }), /executionRemainder must be an integer/),
  // text Postgres cannot store, anywhere in data or metadata
  create(
    'U+0000 in a data value',
    httpRequestExample(HOUR, { data: { url: 'http://a.io', body: { note: 'a\u0000b' } } }),
    /^data\.body\.note must not contain the character U\+0000/m,
  ),
  create(
    'U+0000 in a data key',
    httpRequestExample(HOUR, { data: { url: 'http://a.io', body: { 'k\u0000': 1 } } }),
    /^data\.body\["k\\u0000"\]: the key must not contain the character U\+0000/m,
  ),
  create(
    'U+0000 deep in a metadata array',
    httpRequestExample(HOUR, { metadata: { a: [{ b: ['ok', '\u0000'] }] } }),
    /^metadata\.a\.0\.b\.1 must not contain the character U\+0000/m,
  ),
  create(
    'U+0000 in a metadata key',
    httpRequestExample(HOUR, { metadata: { x: { '\u0000': true } } }),
    /^metadata\.x\["\\u0000"\]: the key must not contain/m,
  ),
  create(
    'an unpaired surrogate in metadata',
    raw(`{"action":"HTTP_REQUEST","executionTime":${LATER},"data":{"url":"http://a.io"},"metadata":{"s":"\\ud800"}}`),
    /^metadata\.s must not contain an unpaired UTF-16 surrogate/m,
  ),
  create(
    'a number beyond a double in metadata',
    raw(`{"action":"HTTP_REQUEST","executionTime":${LATER},"data":{"url":"http://a.io"},"metadata":{"n":1e400}}`),
    /^metadata\.n must be a finite number/m,
  ),
  // nesting
  create('metadata taking the body to 33 levels', httpRequestExample(HOUR, { metadata: nested(32) }), /^metadata(\.a)+ nests deeper than 32 levels/m),
  create('an unknown field nested 40 levels', httpRequestExample(HOUR, { extra: nested(40) }), /nests deeper than 32 levels/),
  create('a body of 10,000 nested arrays', raw('['.repeat(10_000) + ']'.repeat(10_000)), /nests deeper than 32 levels/),
  {
    name: 'POST /actions/batch: a 1 MiB body of nested arrays',
    send: (api) => api.client.post('/actions/batch', undefined, { rawBody: '['.repeat(500_000) + ']'.repeat(500_000) }),
    status: 400,
    message: /nests deeper than 32 levels/,
  },
  // keys
  create(
    '__proto__ in data',
    raw(`{"action":"HTTP_REQUEST","executionTime":${LATER},"data":{"url":"http://a.io","body":{"__proto__":{"admin":true}}}}`),
    /^data\.body\.__proto__: a key named __proto__ is not accepted/m,
  ),
  create(
    '__proto__ at the top',
    raw(`{"__proto__":{"x":1},"action":"HTTP_REQUEST","executionTime":${LATER},"data":{"url":"http://a.io"}}`),
    /^__proto__: a key named __proto__ is not accepted/m,
  ),
  create(
    'a "constructor" field in data of a strict type',
    httpRequestExample(HOUR, { data: { url: 'http://a.io', constructor: 1 } }),
    /^data\.constructor: property constructor should not exist/m,
  ),
  create(
    'an unknown field holding a "constructor" key',
    httpRequestExample(HOUR, { extra: { constructor: { constructor: 1 } } }),
    /property extra should not exist/,
  ),
  create(
    'a body that is an array',
    [httpRequestExample(HOUR)],
    /^property 0 should not exist\naction is required\nexecutionTime is required\ndata is required$/,
  ),
  // the same rules for each batch item, named by index
  batchItem('null executionTime', httpRequestExample(HOUR, { executionTime: null }), /^items\.2\.executionTime must be/m),
  batchItem('executionTime in seconds', httpRequestExample(HOUR, { executionTime: SECONDS_AN_HOUR_AHEAD }), ITEM_IN_SECONDS),
  batchItem('null metadata', httpRequestExample(HOUR, { metadata: null }), /^items\.2\.metadata must not be null/m),
  batchItem('executionTime in year 10000', httpRequestExample(HOUR, { executionTime: '10000-01-01T00:00:00Z' }), /^items\.2\.executionTime must be/m),
  batchItem(
    'executionRemainder 2^31',
    notificationExample(HOUR, { executionRemainder: INT32_OVERFLOW }),
    /^items\.2\.executionRemainder must be an integer/m,
  ),
  batchItem(
    'U+0000 in metadata',
    httpRequestExample(HOUR, { metadata: { note: '\u0000' } }),
    /^items\.2\.metadata\.note must not contain the character U\+0000/m,
  ),
  batchItem(
    'metadata taking the body to 33 levels',
    httpRequestExample(HOUR, { metadata: nested(31) }),
    /^items\.2\.metadata(\.a)+ nests deeper than 32 levels/m,
  ),
  batchItem(
    'a "constructor" field in data',
    httpRequestExample(HOUR, { data: { url: 'http://a.io', constructor: 'x' } }),
    /^items\.2\.data\.constructor: property constructor should not exist/m,
  ),
  // PATCH: every field may be left out, none may be null
  ...['executionTime', 'data', 'metadata', 'repeat', 'frequency', 'executionRemainder', 'misfirePolicy'].map((field) =>
    patch(`${field}: null`, { [field]: null }, new RegExp(`^${field} must not be null`, 'm')),
  ),
  patch('executionTime in year 10000', { executionTime: Date.UTC(10000, 0, 1) }, /^executionTime must be .* between 1970/m),
  patch('executionTime in seconds', { executionTime: SECONDS_AN_HOUR_AHEAD }, IN_SECONDS),
  patch('executionRemainder 2^31', { executionRemainder: INT32_OVERFLOW }, /^executionRemainder must be an integer ≥ 1 \(at most 2147483647\)/m),
  patch('U+0000 in a metadata key', { metadata: { 'a\u0000': 1 } }, /^metadata\["a\\u0000"\]: the key must not contain/m),
  patch('__proto__ in data', raw('{"data":{"mobile":"60123456789","__proto__":{}}}'), /^data\.__proto__: a key named __proto__ is not accepted/m),
  patch('data taking the body to 33 levels', { data: nested(32) }, /^data(\.a)+ nests deeper than 32 levels/m),
  patch(
    'a "constructor" field in data of a strict type',
    { data: { ...notificationExample().data, constructor: 1 } },
    /^data\.constructor: property constructor should not exist/m,
  ),
  // preview: the rules of create
  preview('executionTime in seconds', httpRequestExample(HOUR, { executionTime: SECONDS_AN_HOUR_AHEAD }), IN_SECONDS),
  // list query
  list(`limit=${INT32_OVERFLOW}`, /limit must be an integer from 1 to 500/),
  list('limit=99999999999999999999', /limit must be an integer from 1 to 500/),
  list('action=HTTP%00REQUEST', /^action must not contain the character U\+0000/m),
  list(`cursor=${cursor(['+099999-01-01T00:00:00.000Z', SOME_UUID])}`, /cursor is not valid/),
  list(`cursor=${cursor(['1969-12-31T23:59:59.999Z', SOME_UUID])}`, /cursor is not valid/),
  list(`cursor=${cursor(['2031-01-01T00:00:00.000Z', 'not-a-uuid'])}`, /cursor is not valid/),
  list(`cursor=${cursor({ executionTime: '2031-01-01T00:00:00.000Z', id: SOME_UUID })}`, /cursor is not valid/),
  list(`cursor=${cursor([0, SOME_UUID])}`, /cursor is not valid/),
  list('cursor=%00%01%02', /cursor is not valid/),
  // history query
  ...['0', '1001', String(INT32_OVERFLOW), 'many'].map((limit) => history(`limit=${limit}`, /limit must be an integer from 1 to 1000/)),
  ...[['0'], ['-1'], ['9223372036854775808'], ['12abc'], [12], '99', ['1', '2']].map((position) =>
    history(`cursor=${cursor(position)}`, /cursor is not valid/),
  ),
  history('cursor=garbage', /cursor is not valid/),
  history('after=1', /property after should not exist/),
];

describe('Hostile input: refused with 400 naming the field, changing nothing', () => {
  let api: ApiTestApp;
  let existing: { id: string };

  beforeAll(async () => {
    api = await startCleanApiApp();
    existing = (await api.client.post('/actions', notificationExample(2 * HOUR))).body;
  });
  afterAll(() => api.close());

  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, { send: request, status, message }) => {
    const before = { counts: await storedCounts(api.db), jobs: await queuedJobs(api.app), row: await storedRow(existing.id) };
    const response = await request(api, existing.id);
    expect({ status: response.status, message: messageText(response.body) }).toEqual({ status, message: expect.stringMatching(message) });
    expect(await storedCounts(api.db)).toEqual(before.counts);
    expect(await queuedJobs(api.app)).toBe(before.jobs);
    expect(await storedRow(existing.id)).toEqual(before.row);
  });

  async function storedRow(id: string): Promise<unknown> {
    const [row] = await api.db.query(`SELECT * FROM actions WHERE id = $1`, [id]);
    return row;
  }
});
