import { IMPERSONATING_HEADERS } from '@app/testing';
import { ApiTestApp, startApiApp, startCleanApiApp } from './support/api-test-app';
import { httpRequestExample, messageText, storedCounts } from './support/fixtures';
import { ownAddress } from './support/own-address';
import { queuedJobs } from './support/queue-state';

const HOUR = 3_600_000;
const to = (url: string, extra: object = {}) => httpRequestExample(HOUR, { data: { url, ...extra } });
const own = ownAddress();

describe('Outbound destinations checked when an HTTP_REQUEST is stored', () => {
  let strict: ApiTestApp;
  let allowing: ApiTestApp;

  beforeAll(async () => {
    strict = await startCleanApiApp(undefined, { OUTBOUND_ALLOWED_HOSTS: '' });
    allowing = await startApiApp(undefined, { OUTBOUND_ALLOWED_HOSTS: `localhost,127.0.0.1,10.0.0.0/8,${own.address}` });
  });
  afterAll(async () => {
    await strict.close();
    await allowing.close();
  });

  /** Sends a request that must be refused with 400 and checks that it stored and queued nothing. */
  async function expectRefused(send: () => Promise<{ status: number; body: any }>, message: RegExp) {
    const before = { counts: await storedCounts(strict.db), subscriptions: await subscriptionCount() };
    const jobsBefore = await queuedJobs(strict.app);
    const response = await send();
    expect(response.status).toBe(400);
    expect(messageText(response.body)).toMatch(message);
    expect({ counts: await storedCounts(strict.db), subscriptions: await subscriptionCount() }).toEqual(before);
    expect(await queuedJobs(strict.app)).toBe(jobsBefore);
  }

  async function subscriptionCount(): Promise<number> {
    const [row] = await strict.db.query('SELECT count(*)::int AS n FROM webhook_subscriptions');
    return row.n;
  }

  /** Creates a PENDING HTTP_REQUEST to a public host, to be patched. */
  async function created(): Promise<any> {
    const response = await strict.client.post('/actions', to('https://example.com/hook'));
    expect(response.status).toBe(201);
    return response.body;
  }

  it.each([
    ['the cloud metadata endpoint', 'http://169.254.169.254/latest/meta-data/', '169.254.169.254 is a link-local address'],
    ['loopback', 'http://127.0.0.1:5432/', '127.0.0.1 is a loopback address'],
    ['loopback as one decimal number', 'http://2130706433/', '127.0.0.1 is a loopback address'],
    ['loopback in octal', 'http://0177.0.0.1/', '127.0.0.1 is a loopback address'],
    ['loopback in short hex', 'http://0x7f.1/', '127.0.0.1 is a loopback address'],
    ['IPv6 loopback', 'http://[::1]:3000/admin/queues', '::1 is a loopback address'],
    ['IPv4-mapped link-local', 'http://[::ffff:169.254.169.254]/', '::ffff:a9fe:a9fe is a link-local address'],
    ['IPv4-mapped loopback in hex', 'http://[::ffff:7f00:1]/', '::ffff:7f00:1 is a loopback address'],
    ['private', 'https://10.1.2.3/', '10.1.2.3 is a private address'],
    ['private 172.16/12', 'http://172.20.0.1/', '172.20.0.1 is a private address'],
    ['private 192.168/16', 'http://192.168.0.1/', '192.168.0.1 is a private address'],
    ['unique local IPv6', 'http://[fd00::1]/', 'fd00::1 is a private address'],
    ['shared', 'http://100.64.0.1/', '100.64.0.1 is a shared (carrier-grade NAT) address'],
    ['unspecified', 'http://0.0.0.0:3000/', '0.0.0.0 is an unspecified address'],
    ['multicast', 'http://224.0.0.1/', '224.0.0.1 is a multicast address'],
    ['broadcast', 'http://255.255.255.255/', '255.255.255.255 is the broadcast address'],
    ['IPv6 link-local', 'http://[fe80::1]/', 'fe80::1 is a link-local address'],
    ['localhost', 'http://localhost:3000/admin/queues', 'localhost is a loopback address'],
    ['documentation 192.0.2.0/24', 'http://192.0.2.1/', '192.0.2.1 is a documentation address'],
    ['documentation 198.51.100.0/24 as one hex number', 'http://0xc6336407/', '198.51.100.7 is a documentation address'],
    ['documentation 203.0.113.0/24', 'http://203.0.113.9/', '203.0.113.9 is a documentation address'],
    ['benchmarking 198.18.0.0/15 in short form', 'http://198.18.1/', '198.18.0.1 is a benchmarking address'],
    ['IETF protocol assignments 192.0.0.0/24', 'http://192.0.0.8/', '192.0.0.8 is a reserved address'],
    ['reserved 240.0.0.0/4 as one decimal number', 'http://4026531841/', '240.0.0.1 is a reserved address'],
    ['IPv4-mapped loopback written dotted', 'http://[::ffff:127.0.0.1]/', '::ffff:7f00:1 is a loopback address'],
    ['IPv4-compatible loopback', 'http://[::127.0.0.1]/', '::7f00:1 is a loopback address'],
    ['NAT64 loopback', 'http://[64:ff9b::7f00:1]/', '64:ff9b::7f00:1 is a loopback address'],
    ['local-use NAT64 metadata endpoint', 'http://[64:ff9b:1::169.254.169.254]/', '64:ff9b:1::a9fe:a9fe is a link-local address'],
    ['6to4 loopback', 'http://[2002:7f00:1::]/', '2002:7f00:1:: is a loopback address'],
    ['Teredo', 'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', '2001:0:4136:e378:8000:63bf:3fff:fdd2 is a Teredo address'],
  ])('POST /actions to %s → 400 naming data.url', async (_name, url, refusal) => {
    const expected = new RegExp(`data\\.url: the destination is not allowed \\(${refusal.replace(/[.()[\]]/g, '\\$&')}\\)`);
    await expectRefused(() => strict.client.post('/actions', to(url)), expected);
  });

  it('POST /actions/batch names the refused item', async () => {
    const items = [to('https://example.com/a'), to('https://example.com/b'), to('http://169.254.169.254/')];
    await expectRefused(() => strict.client.post('/actions/batch', { items }), /items\.2\.data\.url: the destination is not allowed/);
  });

  it('PATCH to a refused destination → 400 and the action is unchanged', async () => {
    const created = await strict.client.post('/actions', to('https://example.com/hook'));
    expect(created.status).toBe(201);
    await expectRefused(
      () => strict.client.patch(`/actions/${created.body.id}`, { data: { url: 'http://[::ffff:169.254.169.254]/' } }),
      /data\.url: the destination is not allowed/,
    );
    expect((await strict.client.get(`/actions/${created.body.id}`)).body).toEqual(created.body);
  });

  it("refuses this machine's own address unless OUTBOUND_ALLOWED_HOSTS lists it", async () => {
    const url = `http://${own.host}:9464/metrics`;
    const refusal = `data.url: the destination is not allowed (${own.address} is this machine's own address)`;
    await expectRefused(() => strict.client.post('/actions', to(url)), new RegExp(refusal.replace(/[.()[\]]/g, '\\$&')));
    expect((await allowing.client.post('/actions', to(url))).status).toBe(201);
  });

  describe('a URL with user information → 400: credentials belong in a header', () => {
    const problem = (field: string) =>
      new RegExp(`${field.replace(/\./g, '\\.')}:? (url )?must not hold user information \\(credentials belong in a header\\)`);

    it.each(['http://user:secret@example.com/hook', 'https://user@example.com/hook'])('POST /actions with data.url %s', async (url) => {
      await expectRefused(() => strict.client.post('/actions', to(url)), problem('data.url'));
    });

    it('POST /actions/batch, naming the item', async () => {
      const items = [to('https://example.com/a'), to('https://user:secret@example.com/b')];
      await expectRefused(() => strict.client.post('/actions/batch', { items }), problem('items.1.data.url'));
    });

    it('POST /actions/preview', async () => {
      await expectRefused(() => strict.client.post('/actions/preview', to('https://user:secret@example.com/')), problem('data.url'));
    });

    it('PATCH, leaving the action as it was', async () => {
      const action = await created();
      await expectRefused(() => strict.client.patch(`/actions/${action.id}`, { data: { url: 'https://user:secret@example.com/' } }), problem('data.url'));
      expect((await strict.client.get(`/actions/${action.id}`)).body).toEqual(action);
    });

    it('callbackUrl, at create, in a batch and by PATCH', async () => {
      const callbackUrl = 'https://user:secret@hooks.example.com/events';
      await expectRefused(() => strict.client.post('/actions', { ...to('https://example.com/'), callbackUrl }), problem('callbackUrl'));
      const items = [to('https://example.com/a'), { ...to('https://example.com/b'), callbackUrl }];
      await expectRefused(() => strict.client.post('/actions/batch', { items }), problem('items.1.callbackUrl'));
      const action = await created();
      await expectRefused(() => strict.client.patch(`/actions/${action.id}`, { callbackUrl }), problem('callbackUrl'));
      expect((await strict.client.get(`/actions/${action.id}`)).body).toEqual(action);
    });

    it('a webhook subscription url', async () => {
      const subscription = { url: 'https://user:secret@hooks.example.com/events', events: ['action.failed'] };
      await expectRefused(() => strict.client.post('/webhooks', subscription), problem('url'));
    });
  });

  describe('headers that would let a call impersonate → 400 naming the header, nothing stored', () => {
    const named = (name: string) => new RegExp(`data\\.headers: headers\\["${name}"\\] may not be set`);

    it.each(IMPERSONATING_HEADERS)('%s at create, in a batch, in a preview and by PATCH', async (name) => {
      const headers = { 'X-Fine': 'yes', [name]: 'admin.internal.example' };
      await expectRefused(() => strict.client.post('/actions', to('https://example.com/hook', { headers })), named(name));
      const items = [to('https://example.com/a'), to('https://example.com/b', { headers })];
      await expectRefused(() => strict.client.post('/actions/batch', { items }), new RegExp(`items\\.1\\.${named(name).source}`));
      await expectRefused(() => strict.client.post('/actions/preview', to('https://example.com/hook', { headers })), named(name));
      const action = await created();
      await expectRefused(() => strict.client.patch(`/actions/${action.id}`, { data: { url: 'https://example.com/hook', headers } }), named(name));
      expect((await strict.client.get(`/actions/${action.id}`)).body).toEqual(action);
    });
  });

  it('leaves host names to the check made when the call is sent', async () => {
    expect((await strict.client.post('/actions', to('http://internal.test/hook'))).status).toBe(201);
  });

  it('accepts the destinations OUTBOUND_ALLOWED_HOSTS lists, and still refuses the others', async () => {
    for (const url of ['http://localhost:4000/hook', 'http://127.0.0.1:4000/hook', 'https://10.1.2.3/hook']) {
      const response = await allowing.client.post('/actions', to(url));
      expect([url, response.status]).toEqual([url, 201]);
    }
    const refused = await allowing.client.post('/actions', to('http://169.254.169.254/'));
    expect(refused.status).toBe(400);
    expect(messageText(refused.body)).toMatch(/data\.url: the destination is not allowed \(169\.254\.169\.254 is a link-local address\)/);
  });

  it.each([
    ['a name that is not an HTTP token', { 'X Bad': 'v' }, /data\.headers: headers\["X Bad"\] is not a valid header name/],
    ['a value with CR/LF', { 'X-Split': 'a\r\nInjected: yes' }, /data\.headers: headers\["X-Split"\] has a value with characters that cannot be sent/],
    ['a value with NUL', { 'X-Nul': 'a\u0000b' }, /data\.headers\["X-Nul"\] must not contain the character U\+0000/],
    ['a header Punctual signs', { 'webhook-signature': 'v1,forged' }, /data\.headers: headers\["webhook-signature"\] is set by Punctual on every call/],
  ])('headers with %s → 400 naming the header', async (_name, headers, message) => {
    await expectRefused(() => strict.client.post('/actions', to('https://example.com/hook', { headers })), message);
  });
});
