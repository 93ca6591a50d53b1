import { ConfigError, loadDatabaseUrl } from './load-config';

describe('loadDatabaseUrl', () => {
  it('reads DATABASE_URL as the processes do: the variable, else the default, whatever else is missing', () => {
    expect(loadDatabaseUrl({ DATABASE_URL: 'postgres://app@db.internal:5433/jobs' })).toBe('postgres://app@db.internal:5433/jobs');
    expect(loadDatabaseUrl({})).toBe('postgres://postgres@127.0.0.1:5432/punctual');
    expect(loadDatabaseUrl({ DATABASE_URL: '' })).toBe('postgres://postgres@127.0.0.1:5432/punctual');
  });

  it('refuses a malformed one with a message naming the variable', () => {
    for (const bad of ['localhost/punctual', 'mysql://root@127.0.0.1/punctual']) {
      expect(() => loadDatabaseUrl({ DATABASE_URL: bad })).toThrow(ConfigError);
      expect(() => loadDatabaseUrl({ DATABASE_URL: bad })).toThrow(/DATABASE_URL/);
    }
  });
});
