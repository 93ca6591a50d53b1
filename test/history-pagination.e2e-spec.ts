import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { httpRequestExample } from './support/fixtures';

const HOUR = 3_600_000;
const MISSING = '00000000-0000-4000-8000-000000000000';
const NEXT_LINK = /^<(\/actions\/[0-9a-f-]{36}\/history\?limit=(\d+)&cursor=([A-Za-z0-9_-]+))>; rel="next"$/;

describe('GET /actions/:id/history in pages', () => {
  let api: ApiTestApp;
  let id: string;

  beforeAll(async () => {
    api = await startCleanApiApp();
    id = (await api.client.post('/actions', httpRequestExample(HOUR))).body.id;
    await appendEntries(id, 2_345);
  });
  afterAll(() => api.close());

  /** History entries as a worker appends them, without running anything. */
  async function appendEntries(actionId: string, count: number): Promise<void> {
    await api.db.query(
      `INSERT INTO action_history (action_id, occurrence, from_status, to_status, attempt, note, at, event)
       SELECT $1, 1, 'PENDING', 'PENDING', 0, 'entry ' || i, clock_timestamp(), 'patched' FROM generate_series(1, $2) i`,
      [actionId, count],
    );
  }

  /** Follows the Link headers from `path` to the last page; returns every page's entries. */
  async function walk(path: string): Promise<{ pages: any[][]; links: string[] }> {
    const pages: any[][] = [];
    const links: string[] = [];
    for (let next: string | null = path; next;) {
      const response: { status: number; body: any[]; headers: Headers } = await api.client.get(next);
      expect(response.status).toBe(200);
      expect(Array.isArray(response.body)).toBe(true);
      pages.push(response.body);
      const link: string | null = response.headers.get('link');
      if (link) links.push(link);
      next = link ? NEXT_LINK.exec(link)![1] : null;
    }
    return { pages, links };
  }

  it('answers at most 1000 entries by default, oldest first, and links the next page until the last', async () => {
    const { pages, links } = await walk(`/actions/${id}/history`);
    expect(pages.map((p) => p.length)).toEqual([1000, 1000, 346]);
    expect(links).toHaveLength(2);
    for (const link of links) expect(link).toMatch(NEXT_LINK);
    expect(links.map((l) => NEXT_LINK.exec(l)![2])).toEqual(['1000', '1000']);
    const entries = pages.flat();
    expect(entries[0]).toMatchObject({ from: null, to: 'PENDING', note: 'created' });
    const stored: { at: Date }[] = await api.db.query(`SELECT at FROM action_history WHERE action_id = $1 ORDER BY id`, [id]);
    expect(entries.map((e) => e.at)).toEqual(stored.map((row) => row.at.toISOString()));
    expect(entries.slice(1).map((e) => e.note)).toEqual(Array.from({ length: 2_345 }, (_, i) => `entry ${i + 1}`));
  });

  it('honours ?limit= and walks every entry exactly once, also while entries are appended', async () => {
    const seen: string[] = [];
    let next: string | null = `/actions/${id}/history?limit=400`;
    let appended = false;
    while (next) {
      const response: { status: number; body: any[]; headers: Headers } = await api.client.get(next);
      seen.push(...response.body.map((e) => e.note));
      if (!appended) {
        await appendEntries(id, 5);
        appended = true;
      }
      const link: string | null = response.headers.get('link');
      expect(link === null || NEXT_LINK.exec(link)![2] === '400').toBe(true);
      next = link ? NEXT_LINK.exec(link)![1] : null;
    }
    expect(seen).toHaveLength(1 + 2_345 + 5);
    expect(new Set(seen.slice(1)).size).toBe(2_345);
  });

  it('renders each time as ISO-8601 UTC with milliseconds, whatever its fraction', async () => {
    const other = (await api.client.post('/actions', httpRequestExample(HOUR))).body.id;
    const times = [
      '2031-01-01T00:00:00Z',
      '2031-01-01T00:00:00.1Z',
      '2031-01-01T00:00:00.12Z',
      '2031-12-31T23:59:59.999999Z',
      '2031-06-01T12:00:00.000001+02:00',
    ];
    await api.db.query(
      `INSERT INTO action_history (action_id, occurrence, from_status, to_status, attempt, note, at, event)
       SELECT $1, 1, 'PENDING', 'PENDING', 0, NULL, t, 'patched' FROM unnest($2::timestamptz[]) WITH ORDINALITY AS times(t, n) ORDER BY n`,
      [other, times],
    );
    const response = await api.client.get(`/actions/${other}/history`);
    expect(response.body.slice(1).map((e: any) => e.at)).toEqual([
      '2031-01-01T00:00:00.000Z',
      '2031-01-01T00:00:00.100Z',
      '2031-01-01T00:00:00.120Z',
      '2031-12-31T23:59:59.999Z',
      '2031-06-01T10:00:00.000Z',
    ]);
  });

  it('an action whose history fits one page gets no Link header', async () => {
    const small = (await api.client.post('/actions', httpRequestExample(HOUR))).body.id;
    const response = await api.client.get(`/actions/${small}/history`);
    expect(response.body).toHaveLength(1);
    expect(response.headers.get('link')).toBeNull();
    const exact = await api.client.get(`/actions/${small}/history?limit=1`);
    expect(exact.headers.get('link')).toBeNull();
  });

  it('404 for an unknown action, with or without a cursor; an empty page past the end of a known one', async () => {
    const page = await api.client.get(`/actions/${id}/history?limit=1`);
    const cursor = NEXT_LINK.exec(page.headers.get('link')!)![3];
    expect((await api.client.get(`/actions/${MISSING}/history`)).status).toBe(404);
    expect((await api.client.get(`/actions/${MISSING}/history?cursor=${cursor}`)).status).toBe(404);
    const [{ last }] = await api.db.query(`SELECT max(id)::text AS last FROM action_history`);
    const pastTheEnd = Buffer.from(JSON.stringify([last])).toString('base64url');
    const response = await api.client.get(`/actions/${id}/history?cursor=${pastTheEnd}`);
    expect({ status: response.status, body: response.body, link: response.headers.get('link') }).toEqual({ status: 200, body: [], link: null });
  });
});
