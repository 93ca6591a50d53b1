import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { storedCounts } from './support/fixtures';

// Europe/Berlin in 2027: clocks jump from 02:00 to 03:00 on 28 March, and back from 03:00 to 02:00 on 31 October.
describe('dstPolicy: an owner chooses how a wall-clock schedule meets daylight-saving changes', () => {
  let api: ApiTestApp;

  beforeAll(async () => {
    api = await startCleanApiApp();
  });
  afterAll(() => api.close());

  const daily = (extra: object) => ({
    action: 'HTTP_REQUEST',
    data: { url: 'https://example.com/daily' },
    repeat: true,
    frequency: 'DAILY',
    executionRemainder: 5,
    timezone: 'Europe/Berlin',
    executionTime: '2027-03-27T01:30:00.000Z', // 02:30 in Berlin
    ...extra,
  });
  const occurrences = async (body: object) => (await api.client.post('/actions/preview?count=3', body)).body.occurrences;

  it('runs 02:30 on the day the clocks skip it after the jump (shift, the default) or not at all (skip)', async () => {
    expect(await occurrences(daily({}))).toEqual(['2027-03-27T01:30:00.000Z', '2027-03-28T01:00:00.000Z', '2027-03-29T00:30:00.000Z']);
    expect(await occurrences(daily({ dstPolicy: { gap: 'skip', overlap: 'first' } }))).toEqual([
      '2027-03-27T01:30:00.000Z',
      '2027-03-29T00:30:00.000Z',
      '2027-03-30T00:30:00.000Z',
    ]);
  });

  it('runs a repeated 02:30 at its first instant, its last, or both', async () => {
    const cron = (overlap: string) => ({
      ...daily({}),
      frequency: undefined,
      executionRemainder: undefined,
      cron: '30 2 * * *',
      executionTime: '2027-10-30T00:00:00.000Z',
      dstPolicy: { gap: 'shift', overlap },
    });
    const preview = async (overlap: string) => (await api.client.post('/actions/preview?count=4', cron(overlap))).body.occurrences;
    expect(await preview('first')).toEqual([
      '2027-10-30T00:30:00.000Z',
      '2027-10-31T00:30:00.000Z',
      '2027-11-01T01:30:00.000Z',
      '2027-11-02T01:30:00.000Z',
    ]);
    expect(await preview('last')).toEqual([
      '2027-10-30T00:30:00.000Z',
      '2027-10-31T01:30:00.000Z',
      '2027-11-01T01:30:00.000Z',
      '2027-11-02T01:30:00.000Z',
    ]);
    expect(await preview('both')).toEqual([
      '2027-10-30T00:30:00.000Z',
      '2027-10-31T00:30:00.000Z',
      '2027-10-31T01:30:00.000Z',
      '2027-11-01T01:30:00.000Z',
    ]);
  });

  it('runs a day whose executionTime is the first pass of a repeated 02:30 once under last: that pass, then the next days', async () => {
    const firstPass = daily({ executionTime: '2027-10-31T00:30:00.000Z', dstPolicy: { gap: 'shift', overlap: 'last' } });
    expect(await occurrences(firstPass)).toEqual(['2027-10-31T00:30:00.000Z', '2027-11-01T01:30:00.000Z', '2027-11-02T01:30:00.000Z']);
    const created = await api.client.post('/actions', firstPass);
    const listed = await api.client.get(`/actions/${created.body.id}/occurrences?count=3`);
    expect(listed.body.occurrences).toEqual(['2027-10-31T00:30:00.000Z', '2027-11-01T01:30:00.000Z', '2027-11-02T01:30:00.000Z']);
  });

  it('answers the policy on every repeating action (the default unless chosen), null on a one-off; PATCH changes it, null resets it', async () => {
    const created = await api.client.post('/actions', daily({}));
    expect(created.status).toBe(201);
    expect(created.body.dstPolicy).toEqual({ gap: 'shift', overlap: 'first' });
    const oneOff = await api.client.post('/actions', {
      action: 'HTTP_REQUEST',
      data: { url: 'https://example.com/x' },
      executionTime: '2027-03-27T01:30:00.000Z',
    });
    expect(oneOff.body.dstPolicy).toBeNull();

    const patched = await api.client.patch(`/actions/${created.body.id}`, { dstPolicy: { gap: 'skip', overlap: 'last' } });
    expect(patched.status).toBe(200);
    expect(patched.body.dstPolicy).toEqual({ gap: 'skip', overlap: 'last' });
    const listed = (await api.client.get(`/actions/${created.body.id}/occurrences?count=2`)).body.occurrences;
    expect(listed).toEqual(['2027-03-27T01:30:00.000Z', '2027-03-29T00:30:00.000Z']);
    const reset = await api.client.patch(`/actions/${created.body.id}`, { dstPolicy: null });
    expect(reset.body.dstPolicy).toEqual({ gap: 'shift', overlap: 'first' });
  });

  it('refuses a policy that is not one, or one on a one-off action (400), storing nothing', async () => {
    const before = await storedCounts(api.db);
    const refusals: [object, RegExp][] = [
      [{ dstPolicy: { gap: 'later', overlap: 'first' } }, /dstPolicy.gap must be one of shift, skip/],
      [{ dstPolicy: { gap: 'skip', overlap: 'middle' } }, /dstPolicy.overlap must be one of first, last, both/],
      [{ dstPolicy: { gap: 'skip', overlap: 'first', zone: 'x' } }, /dstPolicy.zone should not exist/],
      [{ dstPolicy: 'skip' }, /dstPolicy must be an object/],
      [
        { repeat: false, frequency: undefined, executionRemainder: undefined, dstPolicy: { gap: 'skip', overlap: 'first' } },
        /dstPolicy needs repeat: true/,
      ],
    ];
    for (const [extra, message] of refusals) {
      const refused = await api.client.post('/actions', daily(extra));
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.body.message)).toMatch(message);
    }
    expect(await storedCounts(api.db)).toEqual(before);
  });
});
