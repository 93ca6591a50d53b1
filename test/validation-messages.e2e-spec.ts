import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { httpRequestExample, storedCounts } from './support/fixtures';

const HOUR = 3_600_000;
const CRON_READS =
  'Punctual reads 5 fields (minute hour day-of-month month day-of-week), 6 (second first) or one of @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly';

/** Every message of a refused body, exactly: one per field, all of them in one answer, over HTTP. */
describe('Validation messages', () => {
  let api: ApiTestApp;

  beforeAll(async () => {
    api = await startCleanApiApp();
  });
  afterAll(() => api.close());

  /** The 400's messages for `body`, after checking it stored nothing. */
  async function refused(method: string, path: string, body: unknown): Promise<unknown> {
    const before = await storedCounts(api.db);
    const response = await api.client.request(method, path, body);
    expect(response.status).toBe(400);
    expect(await storedCounts(api.db)).toEqual(before);
    return (response.body as { message: unknown }).message;
  }
  const create = (body: unknown) => refused('POST', '/actions', body);

  it('an empty body: each required field once, as required', async () => {
    expect(await create({})).toEqual(['action is required', 'executionTime is required', 'data is required']);
  });

  it('a field that breaks three rules gets one message', async () => {
    expect(await create(httpRequestExample(HOUR, { repeat: true, frequency: 'DAILY', executionRemainder: 0 }))).toEqual([
      'executionRemainder must be an integer ≥ 1 (at most 2147483647) when repeat is true (optional with cron: absent means no limit)',
    ]);
  });

  it('an unknown field close to a known one: did you mean', async () => {
    const { executionTime, ...rest } = httpRequestExample(HOUR);
    expect(await create({ ...rest, executeAt: executionTime })).toEqual([
      'property executeAt should not exist; did you mean executionTime?',
      'executionTime is required',
    ]);
    expect(await refused('PATCH', `/actions/${await createdId()}`, { frequence: 'DAILY' })).toEqual([
      'property frequence should not exist; did you mean frequency?',
    ]);
  });

  it('a retryPolicy with two problems reports both', async () => {
    expect(await create(httpRequestExample(HOUR, { retryPolicy: { maxRetries: 30, backoff: { type: 'fixed', delayMs: 5 } } }))).toEqual([
      'retryPolicy.maxRetries must be an integer from 0 to 25',
      'retryPolicy.backoff.delayMs must be an integer of ms from 100 to 604800000 (7 days)',
    ]);
  });

  it('the envelope’s problems and those of data come in one answer, in a batch named by index', async () => {
    expect(await create(httpRequestExample(HOUR, { executionTime: 'tomorrow', data: { url: 'ftp://example.com', method: 'FETCH' } }))).toEqual([
      'executionTime must be epoch milliseconds (a number) or an ISO-8601 string with a zone, e.g. 2025-01-15T08:35:17.120Z, between 1970-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z',
      'data.url: url must be an http or https URL',
      'data.method: method must be one of GET, POST, PUT, PATCH, DELETE',
    ]);
    const items = [httpRequestExample(HOUR), httpRequestExample(HOUR, { repeat: 'yes', data: { url: 42 } })];
    expect(await refused('POST', '/actions/batch', { items })).toEqual([
      'items.1.repeat must be a boolean value',
      'items.1.data.url: url must be an http or https URL',
    ]);
  });

  it.each([
    ['7 fields', '0 0 9 * * * *', `cron "0 0 9 * * * *" is not valid: it has 7 fields; ${CRON_READS}`],
    ['words', 'every day at nine', `cron "every day at nine" is not valid: it has 4 fields; ${CRON_READS}`],
    [
      'a day out of range, shown as given',
      '0 0 32 * *',
      'cron "0 0 32 * *" is not valid: day-of-month "32" names 32, outside 1–31; day-of-month takes 1–31, ? (any), L (last day), nW (weekday nearest the nth), LW (last weekday), *, lists a,b, ranges a-b and steps */n',
    ],
    [
      'an unknown shorthand',
      '@fortnightly',
      `cron "@fortnightly" is not valid: "@fortnightly" is not a shorthand Punctual reads; it reads 5 fields (minute hour day-of-month month day-of-week), 6 (second first) or one of @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly`,
    ],
  ])('cron with %s says what Punctual reads', async (_name, cron, message) => {
    expect(await create(httpRequestExample(HOUR, { repeat: true, cron }))).toBe(message);
  });

  it('previews L, # and the shorthands as documented', async () => {
    const preview = async (cron: string) => {
      const body = { ...httpRequestExample(HOUR, { repeat: true, cron, executionTime: '2031-01-01T00:00:00Z' }) };
      const response = await api.client.post('/actions/preview?count=2', body);
      expect(response.status).toBe(200);
      return (response.body as { occurrences: string[] }).occurrences;
    };
    expect(await preview('0 0 L * *')).toEqual(['2031-01-31T00:00:00.000Z', '2031-02-28T00:00:00.000Z']);
    expect(await preview('0 9 * * 5#2')).toEqual(['2031-01-10T09:00:00.000Z', '2031-02-14T09:00:00.000Z']);
    expect(await preview('@monthly')).toEqual(['2031-01-01T00:00:00.000Z', '2031-02-01T00:00:00.000Z']);
  });

  async function createdId(): Promise<string> {
    const response = await api.client.post('/actions', httpRequestExample(HOUR));
    expect(response.status).toBe(201);
    return (response.body as { id: string }).id;
  }
});
