import { ConfigError, loadConfig } from './load-config';

const minimal = { API_KEYS: 'k1:s1,k2:s2', ADMIN_PASSWORD: 'long-enough' };

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig(minimal);
    expect(config.auth.apiKeys).toEqual(new Map([['k1', 's1'], ['k2', 's2']]));
    expect(config.http.port).toBe(3000);
    expect(config.scheduling).toEqual({
      lockWindowMs: 120000,
      maxRetries: 3,
      backoff: { kind: 'exponential', baseMs: 1000, maxMs: 3600000 },
      retentionDays: 14,
      horizonMs: 600000,
      promoteIntervalMs: 1000,
      overdueGraceMs: 10000,
      claimLeaseMs: 30000,
    });
    expect(config.worker.actions).toBeNull();
    expect(config.smtp.url).toBeNull();
  });

  it('reads an explicit backoff list and the served types', () => {
    const config = loadConfig({ ...minimal, BACKOFF_DELAYS_MS: '60000, 300000,1200000', WORKER_ACTIONS: 'HTTP_REQUEST' });
    expect(config.scheduling.backoff).toEqual({ kind: 'fixed-list', delaysMs: [60000, 300000, 1200000] });
    expect(config.worker.actions).toEqual(['HTTP_REQUEST']);
  });

  it.each([
    [{ ...minimal, API_KEYS: undefined }, 'API_KEYS is required but not set'],
    [{ ...minimal, API_KEYS: 'no-secret' }, 'API_KEYS "no-secret" is not keyId:secret'],
    [{ ...minimal, PORT: 'eighty' }, 'PORT Expected number'],
    [{ ...minimal, DATABASE_URL: 'mysql://x' }, 'DATABASE_URL must be a postgres: or postgresql:// URL'],
    [{ ...minimal, MAX_RETRIES: '-1' }, 'MAX_RETRIES Number must be greater than or equal to 0'],
    [{ ...minimal, BACKOFF_DELAYS_MS: '1m,5m' }, 'BACKOFF_DELAYS_MS must be a comma-separated list of milliseconds'],
    [{ ...minimal, BACKOFF_BASE_MS: '5000', BACKOFF_MAX_MS: '1000' }, 'BACKOFF_BASE_MS (5000) must not exceed BACKOFF_MAX_MS (1000)'],
  ])('names the variable and the problem (%#)', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('lists every problem at once', () => {
    try {
      loadConfig({ PORT: '0' });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect((error as ConfigError).problems).toEqual(
        expect.arrayContaining([expect.stringMatching(/^PORT /), 'API_KEYS is required but not set', 'ADMIN_PASSWORD is required but not set']),
      );
    }
  });
});
