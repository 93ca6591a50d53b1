import { isInTenantInbox, isTenantInboxPattern } from './tenant-inbox';

describe('RPC_TENANT_INBOX_PREFIX: the inbox each tenant is answered in', () => {
  it('takes subject tokens with {tenant} in the last one', () => {
    for (const pattern of ['_INBOX_{tenant}', '{tenant}', 'replies.{tenant}', 'acme.inbox.{tenant}_rpc']) expect(isTenantInboxPattern(pattern)).toBe(true);
  });

  it('refuses a pattern without {tenant}, with a wildcard, an empty token, or a dot after the tenant (which could nest one inbox in another)', () => {
    for (const pattern of [
      '_INBOX',
      '_INBOX.>',
      '_INBOX_{tenant}.>',
      '*.{tenant}',
      '{tenant}.replies',
      '.{tenant}',
      'a..{tenant}',
      '_INBOX {tenant}',
      '{tenant}{tenant}',
    ]) {
      expect(isTenantInboxPattern(pattern)).toBe(false);
    }
  });

  it("holds a subject under the tenant's own prefix and a dot, and nothing of another tenant whose id starts the same", () => {
    expect(isInTenantInbox('_INBOX_team-a.abc', '_INBOX_{tenant}', 'team-a')).toBe(true);
    expect(isInTenantInbox('_INBOX_team-a.abc.def', '_INBOX_{tenant}', 'team-a')).toBe(true);
    expect(isInTenantInbox('_INBOX_team-a.abc', '_INBOX_{tenant}', 'team-b')).toBe(false);
    expect(isInTenantInbox('_INBOX_team-ab.abc', '_INBOX_{tenant}', 'team-a')).toBe(false);
    expect(isInTenantInbox('_INBOX_team-a', '_INBOX_{tenant}', 'team-a')).toBe(false);
    expect(isInTenantInbox('_INBOX.abc', '_INBOX_{tenant}', 'default')).toBe(false);
    expect(isInTenantInbox(undefined, '_INBOX_{tenant}', 'team-a')).toBe(false);
    expect(isInTenantInbox('acme.team-a_rpc.x', 'acme.{tenant}_rpc', 'team-a')).toBe(true);
  });
});
