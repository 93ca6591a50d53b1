import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { storedCounts } from './support/fixtures';

describe('MIN_REPEAT_INTERVAL_MS: no schedule runs more often than the deployment allows', () => {
  let api: ApiTestApp;

  beforeAll(async () => {
    // No lock window: the change below is to an action due within the minute.
    api = await startCleanApiApp(undefined, { MIN_REPEAT_INTERVAL_MS: '60000', LOCK_WINDOW_MS: '0' });
  });
  afterAll(() => api.close());

  const cron = (expression: string) => ({ action: 'HTTP_REQUEST', data: { url: 'https://example.com/hook' }, repeat: true, cron: expression });

  it('refuses a cron whose times come closer, on create, batch and preview, storing nothing', async () => {
    const before = await storedCounts(api.db);
    for (const [path, body] of [
      ['/actions', cron('*/30 * * * * *')],
      ['/actions/batch', { items: [cron('0 * * * * *'), cron('0,1 * * * * *')] }],
      ['/actions/preview', cron('* * * * * *')],
    ] as const) {
      const answer = await api.client.post(path, body);
      expect([path, answer.status]).toEqual([path, 400]);
      expect(JSON.stringify(answer.body.message)).toMatch(
        /runs as often as every \d+ ms; occurrences must be at least 60000 ms apart \(MIN_REPEAT_INTERVAL_MS\)/,
      );
    }
    expect(await storedCounts(api.db)).toEqual(before);
  });

  it('accepts a schedule exactly that far apart, and refuses a change that would bring its times closer', async () => {
    const created = await api.client.post('/actions', cron('0 * * * * *'));
    expect(created.status).toBe(201);
    const refused = await api.client.patch(`/actions/${created.body.id}`, { cron: '*/10 * * * * *' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/cron "\*\/10 \* \* \* \* \*" runs as often as every 10000 ms/);
    expect((await api.client.get(`/actions/${created.body.id}`)).body.cron).toBe('0 * * * * *');
  });
});
