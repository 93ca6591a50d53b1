import { messagingGrantProblems, messagingReach, messagingRefusal } from './messaging';

describe('who may message what', () => {
  const grant = { transports: ['billing'], patterns: ['billing.', 'audit.record'] };

  it('the tenant default reaches everything until limited; any other tenant nothing until allowed', () => {
    expect(messagingReach('default', null)).toBeNull();
    expect(messagingReach('default', grant)).toBe(grant);
    expect(messagingReach('team-b', null)).toEqual({ transports: [], patterns: [] });
    expect(messagingRefusal('team-b', messagingReach('team-b', null), { transport: 'default', pattern: 'x' })?.field).toBe('transport');
  });

  it('a pattern ending in "." allows what starts with it; any other only itself', () => {
    const allowed = (pattern: string) => messagingRefusal('team-b', grant, { transport: 'billing', pattern }) === null;
    expect(allowed('billing.downgrade')).toBe(true);
    expect(allowed('billing.a.b')).toBe(true);
    expect(allowed('billing')).toBe(false);
    expect(allowed('billingx.downgrade')).toBe(false);
    expect(allowed('audit.record')).toBe(true);
    expect(allowed('audit.record.more')).toBe(false);
    expect(allowed('audit.recor')).toBe(false);
  });

  it('names the transport, else the pattern, it refuses', () => {
    expect(messagingRefusal('team-b', grant, { transport: 'default', pattern: 'billing.x' })).toEqual({
      field: 'transport',
      reason: `transport "default" is not allowed for tenant team-b; an operator allows it in the tenant's messaging`,
    });
    expect(messagingRefusal('team-b', grant, { transport: 'billing', pattern: 'crm.x' })).toEqual({
      field: 'pattern',
      reason: `pattern "crm.x" is not allowed for tenant team-b; an operator allows it in the tenant's messaging`,
    });
  });

  it('refuses a grant of a transport that is not configured, or of a wildcard', () => {
    expect(messagingGrantProblems(grant, ['default', 'billing'])).toEqual([]);
    expect(messagingGrantProblems({ transports: ['default', 'crm'], patterns: ['ok', 'billing.*'] }, ['default', 'billing'])).toEqual([
      'messaging.transports.1: transport "crm" is not configured; MESSAGE_TRANSPORTS names billing, default',
      'messaging.patterns.1: "billing.*" is not a message pattern: use visible ASCII characters without spaces, "*" or ">" (a prefix ends in "." and allows every pattern that starts with it)',
    ]);
  });
});
