import { PunctualClient, SignedHttp } from '@punctual/client';
import { OTHER_TENANT_KEY, TEST_KEY } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { emptyTables } from './support/fixtures';

const LIMIT = 100;
/** Names that sort the same in JavaScript and in any collation Postgres may have: one case, one length. */
const nameOf = (prefix: string, i: number) => `${prefix}-${String(i).padStart(3, '0')}`;
const cursorOf = (keys: unknown) => Buffer.from(JSON.stringify(keys)).toString('base64url');

/** Calendars are bounded by construction: at most TENANT_MAX_CALENDARS a tenant, and `GET /calendars` pages (contract §16). */
describe('Calendars: a bounded number per tenant, listed a page at a time', () => {
  let api: ApiTestApp;
  let other: SignedHttp<any>;

  beforeAll(async () => {
    api = await startCleanApiApp();
    other = new SignedHttp<any>({ baseUrl: api.client.baseUrl, ...OTHER_TENANT_KEY });
  });
  afterAll(() => api?.close());
  beforeEach(() => emptyTables(api.db));

  /** Stores `count` calendars of `tenant` straight in the table, as fixtures: what is tested is the API's answer to them. */
  const storeCalendars = (tenant: string, names: string[]) =>
    api.db.query(`INSERT INTO calendars (tenant_id, name) SELECT $1, unnest($2::varchar[])`, [tenant, names]);
  const storedNames = async (tenant: string): Promise<string[]> =>
    (await api.db.query(`SELECT name FROM calendars WHERE tenant_id = $1 ORDER BY name`, [tenant])).map((row: { name: string }) => row.name);
  const storedDates = async (tenant: string): Promise<number> =>
    (await api.db.query(`SELECT count(*)::int AS n FROM calendar_dates WHERE tenant_id = $1`, [tenant]))[0].n;

  describe(`at most ${LIMIT} calendars a tenant (TENANT_MAX_CALENDARS)`, () => {
    it('refuses a new name past the limit with 429 naming it and Retry-After, storing nothing; replacing one still works', async () => {
      await storeCalendars(
        'default',
        Array.from({ length: LIMIT }, (_, i) => nameOf('cal', i)),
      );

      const refused = await api.client.put('/calendars/one-too-many', { dates: ['2030-01-01', '2030-12-25'], description: 'refused' });
      expect(refused.status).toBe(429);
      expect(refused.body.message).toMatch(/Tenant default already has 100 calendars, the most a tenant may keep/);
      expect(refused.body.message).toMatch(/DELETE \/calendars\/:name/);
      expect(refused.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(await storedNames('default')).not.toContain('one-too-many');
      expect(await storedDates('default')).toBe(0);

      const replaced = await api.client.put(`/calendars/${nameOf('cal', 7)}`, { dates: ['2030-05-01'], description: 'replaced at the limit' });
      expect(replaced.status).toBe(200);
      expect(replaced.body).toMatchObject({ name: nameOf('cal', 7), dates: ['2030-05-01'], description: 'replaced at the limit' });

      // The limit is the tenant's own: another tenant still creates; a deletion makes room again.
      expect((await other.put('/calendars/one-too-many', { dates: [] })).status).toBe(200);
      expect((await api.client.delete(`/calendars/${nameOf('cal', 0)}`)).status).toBe(204);
      expect((await api.client.put('/calendars/one-too-many', { dates: ['2030-01-01'] })).status).toBe(200);
      expect(await storedNames('default')).toHaveLength(LIMIT);
    });

    it('lets exactly enough of a burst of concurrent creates through to reach the limit, and no more', async () => {
      await storeCalendars(
        'default',
        Array.from({ length: LIMIT - 5 }, (_, i) => nameOf('cal', i)),
      );
      const burst = Array.from({ length: 50 }, (_, i) => nameOf('burst', i));

      const answers = await Promise.all(burst.map((name) => api.client.put(`/calendars/${name}`, { dates: ['2030-01-01'] })));

      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(5);
      expect(statuses.filter((status) => status === 429)).toHaveLength(45);
      const stored = await storedNames('default');
      expect(stored).toHaveLength(LIMIT);
      const admitted = burst.filter((_, i) => answers[i].status === 200);
      expect(stored.filter((name) => name.startsWith('burst-'))).toEqual(admitted.sort());
      // Only the admitted calendars have dates: a refused create left none behind.
      expect(await storedDates('default')).toBe(5);
    });
  });

  describe('GET /calendars?limit=&cursor=', () => {
    const listed = async (client: SignedHttp<any>, query: string) => {
      const answer = await client.get(`/calendars${query}`);
      expect([query, answer.status]).toEqual([query, 200]);
      return answer.body as { items: { name: string }[]; nextCursor: string | null };
    };

    /** Every page, following nextCursor, as the names each held. */
    const allPages = async (client: SignedHttp<any>, limit?: number): Promise<string[][]> => {
      const pages: string[][] = [];
      let cursor: string | null = null;
      do {
        const query = new URLSearchParams({ ...(limit ? { limit: String(limit) } : {}), ...(cursor ? { cursor } : {}) }).toString();
        const page = await listed(client, query ? `?${query}` : '');
        pages.push(page.items.map((item) => item.name));
        cursor = page.nextCursor;
      } while (cursor);
      return pages;
    };

    it('pages 20 at a time by default, in name order, each calendar whole; limit and cursor walk every page once', async () => {
      // Stored out of order: the list sorts them.
      const names = Array.from({ length: 45 }, (_, i) => nameOf('cal', (i * 7) % 45));
      await storeCalendars('default', names);
      expect((await api.client.put(`/calendars/${nameOf('cal', 3)}`, { dates: ['2030-12-25', '2030-01-01'], description: 'whole' })).status).toBe(200);
      const sorted = [...names].sort();

      const first = await listed(api.client, '');
      expect(first.items.map((item) => item.name)).toEqual(sorted.slice(0, 20));
      expect(first.items[3]).toEqual({ name: nameOf('cal', 3), dates: ['2030-01-01', '2030-12-25'], description: 'whole', updatedAt: expect.any(String) });
      expect(first.nextCursor).toEqual(expect.any(String));

      expect(await allPages(api.client)).toEqual([sorted.slice(0, 20), sorted.slice(20, 40), sorted.slice(40)]);
      expect((await allPages(api.client, 7)).flat()).toEqual(sorted);
      expect(await allPages(api.client, 100)).toEqual([sorted]);
      expect(await allPages(api.client, 45)).toEqual([sorted]);
      expect((await listed(api.client, '?limit=1')).items.map((item) => item.name)).toEqual([sorted[0]]);
    });

    it('ends a page early once its calendars hold 20,000 dates, so the largest calendars still come a few at a time', async () => {
      const names = Array.from({ length: 6 }, (_, i) => nameOf('full', i));
      await storeCalendars('default', [...names, nameOf('small', 0)]);
      await api.db.query(
        `INSERT INTO calendar_dates (tenant_id, calendar, day)
         SELECT 'default', n, date '2030-01-01' + d FROM unnest($1::varchar[]) AS n, generate_series(0, 4999) AS d`,
        [names],
      );

      const first = await listed(api.client, '?limit=100');
      expect(first.items.map((item) => item.name)).toEqual(names.slice(0, 4));
      expect((first.items as unknown as { dates: string[] }[]).map((item) => item.dates.length)).toEqual([5000, 5000, 5000, 5000]);
      const rest = await listed(api.client, `?limit=100&cursor=${first.nextCursor}`);
      expect(rest.items.map((item) => item.name)).toEqual([...names.slice(4), nameOf('small', 0)]);
      expect(rest.nextCursor).toBeNull();
    });

    it('refuses a limit outside 1–100 and a forged cursor with 400', async () => {
      await storeCalendars('default', [nameOf('cal', 1)]);
      for (const limit of ['0', '101', '-1', '1.5', 'ten']) {
        const answer = await api.client.get(`/calendars?limit=${limit}`);
        expect([limit, answer.status]).toEqual([limit, 400]);
        expect(new Set(answer.body.message)).toEqual(new Set(['limit must be an integer from 1 to 100']));
      }
      const forged = [
        'not-a-cursor',
        cursorOf(['cal-001']),
        cursorOf(['cal-001', 'default', 'x']),
        cursorOf([1, 2]),
        cursorOf(['has space', 'default']),
        cursorOf(['cal-001', 'NOT A TENANT']),
        cursorOf({ name: 'cal-001', tenantId: 'default' }),
        // An action list's cursor is not a calendar list's.
        cursorOf(['2030-01-01T00:00:00.000Z', '0b8e3a4e-6a38-4a8e-9a57-4f6a1c2d9e10']),
      ];
      for (const cursor of forged) {
        const answer = await api.client.get(`/calendars?cursor=${encodeURIComponent(cursor)}`);
        expect([cursor, answer.status]).toEqual([cursor, 400]);
        expect(answer.body.message).toMatch(/cursor is not valid: pass the nextCursor of the previous page unchanged/);
      }
      expect((await api.client.get(`/calendars?cursor=${'A'.repeat(201)}`)).status).toBe(400);
      expect((await api.client.get('/calendars?owner=me')).status).toBe(400);
    });

    it("lists only the caller's tenant's calendars, also when it is handed another tenant's cursor", async () => {
      const mine = Array.from({ length: 25 }, (_, i) => nameOf('cal', i));
      const theirs = Array.from({ length: 3 }, (_, i) => nameOf('cal', i * 10 + 5));
      await storeCalendars('default', mine);
      await storeCalendars('team-b', theirs);

      expect((await allPages(api.client)).flat()).toEqual(mine);
      expect(await allPages(other)).toEqual([theirs]);
      // A cursor only says where a page starts: what follows is still the caller's own calendars.
      const afterMine = await listed(other, `?cursor=${(await listed(api.client, '')).nextCursor}`);
      expect(afterMine).toEqual({ items: [expect.objectContaining({ name: nameOf('cal', 25) })], nextCursor: null });
      const afterTheirs = await listed(api.client, `?cursor=${(await listed(other, '?limit=1')).nextCursor}`);
      expect(afterTheirs).toEqual({ items: mine.slice(6).map((name) => expect.objectContaining({ name })), nextCursor: null });
    });

    it('is what the typed client lists', async () => {
      await storeCalendars('default', [nameOf('cal', 2), nameOf('cal', 1), nameOf('cal', 3)]);
      const client = PunctualClient.overHttp({ baseUrl: api.client.baseUrl, ...TEST_KEY });
      const first = await client.calendars.list({ limit: 2 });
      expect(first.items.map((item) => item.name)).toEqual([nameOf('cal', 1), nameOf('cal', 2)]);
      const rest = await client.calendars.list({ limit: 2, cursor: first.nextCursor! });
      expect(rest).toEqual({ items: [expect.objectContaining({ name: nameOf('cal', 3) })], nextCursor: null });
      expect(await client.calendars.list()).toEqual(await listed(api.client, ''));
    });
  });
});
