import { closestName, editDistance } from './did-you-mean';

describe('closestName', () => {
  const create = [
    'action',
    'executionTime',
    'data',
    'metadata',
    'repeat',
    'frequency',
    'executionRemainder',
    'cron',
    'timezone',
    'retryPolicy',
    'callbackUrl',
  ];

  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });

  it.each([
    ['executeAt', 'executionTime'],
    ['frequence', 'frequency'],
    ['timeZone', 'timezone'],
    ['actoin', 'action'],
    ['retryPolicies', 'retryPolicy'],
    ['callbackURL', 'callbackUrl'],
  ])('%s → %s', (unknown, known) => {
    expect(closestName(unknown, create)).toBe(known);
  });

  it('suggests nothing for a name unlike every known one', () => {
    expect(closestName('colour', create)).toBeNull();
    expect(closestName('x', create)).toBeNull();
  });
});
