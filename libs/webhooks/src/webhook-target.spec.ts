import { EgressPolicy } from '@app/outbound';
import { webhookTargetOf, webhookUrlProblem } from './webhook-target';

const egress = new EgressPolicy();

describe('webhook receiver URLs', () => {
  it.each([
    ['https://hooks.example.com/punctual', null],
    ['http://hooks.example.com:8080/p?x=1', null],
    ['mailto:ops@example.com', null],
    ['mailto:ops%40example.com', null],
    ['ftp://example.com/h', 'url must be an https://, http:// or mailto: URL'],
    ['javascript:alert(1)', 'url must be an https://, http:// or mailto: URL'],
    ['mailto:ops@example.com?bcc=everyone@example.com', 'url must be an https://, http:// or mailto: URL'],
    ['mailto:a@example.com,b@example.com', 'url must be an https://, http:// or mailto: URL'],
    ['mailto:%E0%A4%A', 'url must be an https://, http:// or mailto: URL'],
    ['http://127.0.0.1/h', 'url is not an allowed destination: 127.0.0.1 is a loopback address (see OUTBOUND_ALLOWED_HOSTS)'],
    ['http://[::ffff:169.254.169.254]/', expect.stringContaining('url is not an allowed destination')],
    ['http://localhost:3000/', expect.stringContaining('localhost is a loopback address')],
    [`https://example.com/${'a'.repeat(2048)}`, 'url must be at most 2048 characters'],
    ['', 'url must be an https://, http:// or mailto: URL'],
    ['https://user:pass@hooks.example.com/p', 'url must not hold user information (credentials belong in a header)'],
    ['http://user@hooks.example.com/p', 'url must not hold user information (credentials belong in a header)'],
    ['http://192.0.2.1/h', 'url is not an allowed destination: 192.0.2.1 is a documentation address (see OUTBOUND_ALLOWED_HOSTS)'],
  ])('%s', (url, problem) => {
    expect(webhookUrlProblem(url, 'url', egress, true)).toEqual(problem);
  });

  it('refuses mailto: where only http(s) is meant, as for a callback URL', () => {
    expect(webhookUrlProblem('mailto:ops@example.com', 'callbackUrl', egress, false)).toBe('callbackUrl must be an https:// or http:// URL');
  });

  it('refuses user information in a callback URL too', () => {
    expect(webhookUrlProblem('https://user:pass@hooks.example.com/', 'callbackUrl', egress, false)).toBe(
      'callbackUrl must not hold user information (credentials belong in a header)',
    );
  });

  it('tells an email target from an HTTP one', () => {
    expect(webhookTargetOf('mailto:ops@example.com')).toEqual({ kind: 'email', address: 'ops@example.com' });
    expect(webhookTargetOf('https://example.com/h')).toMatchObject({ kind: 'http' });
  });
});
