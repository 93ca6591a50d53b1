import { parseAllowedHosts } from '@app/config';
import { EgressPolicy } from '@app/outbound';
import { ActionTypeRegistry } from '@app/action-types';
import { IMPERSONATING_HEADERS, dataProblems } from '@app/testing';
import { HTTP_REQUEST } from './http-request.type';

describe('HTTP_REQUEST data', () => {
  const strict = new ActionTypeRegistry([HTTP_REQUEST]);
  const problemsOf = (data: object, registry = strict) => dataProblems(registry, 'HTTP_REQUEST', data);

  it('accepts a public destination with sendable headers', async () => {
    expect(
      await problemsOf({ url: 'https://hooks.example.com/a?b=1', headers: { Authorization: 'Bearer x', 'X-Tab': 'a\tb', 'X-Latin': 'café' } }),
    ).toEqual([]);
  });

  it.each(['http://user:pass@hooks.example.com/a', 'http://user@hooks.example.com/a', 'https://:token@hooks.example.com/'])(
    'refuses %s, whose user information belongs in a header',
    async (url) => {
      expect(await problemsOf({ url })).toEqual(['data.url: url must not hold user information (credentials belong in a header)']);
    },
  );

  it('accepts header names that only look like the ones a call may not set', async () => {
    expect(await problemsOf({ url: 'https://example.com', headers: { 'X-Original-Host': 'a', Hostname: 'b', 'X-Forwarded': 'c' } })).toEqual([]);
  });

  it.each([
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254 is a link-local address'],
    ['http://192.0.2.1/', '192.0.2.1 is a documentation address'],
    ['http://[64:ff9b::127.0.0.1]/', '64:ff9b::7f00:1 is a loopback address'],
    ['http://[2002:a9fe:a9fe::]/', '2002:a9fe:a9fe:: is a link-local address'],
    ['http://2130706433/', '127.0.0.1 is a loopback address'],
    ['http://[::ffff:169.254.169.254]/', '::ffff:a9fe:a9fe is a link-local address'],
    ['http://localhost:3000/admin/queues', 'localhost is a loopback address'],
    ['https://10.0.0.5:5432/', '10.0.0.5 is a private address'],
  ])('refuses %s, naming data.url', async (url, refusal) => {
    expect(await problemsOf({ url })).toEqual([`data.url: the destination is not allowed (${refusal})`]);
  });

  it('accepts an internal destination that the allow-list names', async () => {
    const allowing = new ActionTypeRegistry([HTTP_REQUEST], new EgressPolicy(parseAllowedHosts('localhost,10.0.0.0/8').hosts));
    expect(await problemsOf({ url: 'http://localhost:4000/hook' }, allowing)).toEqual([]);
    expect(await problemsOf({ url: 'https://10.0.0.5/' }, allowing)).toEqual([]);
    expect(await problemsOf({ url: 'http://127.0.0.1/' }, allowing)).toEqual([
      'data.url: the destination is not allowed (127.0.0.1 is a loopback address)',
    ]);
  });

  it.each([
    [{ url: 'not a url' }, 'data.url: url must be an http or https URL'],
    [{ url: 'ftp://files.example.com/a' }, 'data.url: url must be an http or https URL'],
    [{ url: 'https://example.com', headers: { 'X Bad': 'v' } }, 'data.headers: headers["X Bad"] is not a valid header name'],
    [{ url: 'https://example.com', headers: { 'X:Colon': 'v' } }, 'data.headers: headers["X:Colon"] is not a valid header name'],
    [
      { url: 'https://example.com', headers: { 'X-Split': 'a\r\nInjected: yes' } },
      'data.headers: headers["X-Split"] has a value with characters that cannot be sent',
    ],
    [{ url: 'https://example.com', headers: { 'X-Nul': 'a\u0000b' } }, 'data.headers: headers["X-Nul"] has a value with characters that cannot be sent'],
    [{ url: 'https://example.com', headers: { 'X-Emoji': '🙂' } }, 'data.headers: headers["X-Emoji"] has a value with characters that cannot be sent'],
    [
      { url: 'https://example.com', headers: { 'Webhook-Signature': 'v1,forged' } },
      'data.headers: headers["Webhook-Signature"] is set by Punctual on every call',
    ],
    [{ url: 'https://example.com', headers: { 'content-length': '0' } }, 'data.headers: headers["content-length"] is set by Punctual on every call'],
    ...IMPERSONATING_HEADERS.map((name): [object, string] => [
      { url: 'https://example.com', headers: { 'X-Fine': 'yes', [name]: 'admin.internal.example' } },
      `data.headers: headers["${name}"] may not be set`,
    ]),
  ])('refuses %j', async (data, problem) => {
    const problems = await problemsOf(data);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(problem);
  });
});
