import { ApiTestApp, startApiApp, startCleanApiApp } from './support/api-test-app';
import { httpRequestExample, messageText, storedCounts } from './support/fixtures';
import { queuedJobs } from './support/queue-state';

const HOUR = 3_600_000;
const to = (url: string, extra: object = {}) => httpRequestExample(HOUR, { data: { url, ...extra } });

describe('Outbound destinations checked when an HTTP_REQUEST is stored', () => {
  let strict: ApiTestApp;
  let allowing: ApiTestApp;

  beforeAll(async () => {
    strict = await startCleanApiApp(undefined, { OUTBOUND_ALLOWED_HOSTS: '' });
    allowing = await startApiApp(undefined, { OUTBOUND_ALLOWED_HOSTS: 'localhost,127.0.0.1,10.0.0.0/8' });
  });
  afterAll(async () => {
    await strict.close();
    await allowing.close();
  });

  /** Sends a request that must be refused with 400 and checks that it stored and queued nothing. */
  async function expectRefused(send: () => Promise<{ status: number; body: any }>, message: RegExp) {
    const before = await storedCounts(strict.db);
    const jobsBefore = await queuedJobs(strict.app);
    const response = await send();
    expect(response.status).toBe(400);
    expect(messageText(response.body)).toMatch(message);
    expect(await storedCounts(strict.db)).toEqual(before);
    expect(await queuedJobs(strict.app)).toBe(jobsBefore);
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
