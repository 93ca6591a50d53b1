import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { EXAMPLE_ADMIN_PASSWORD, EXAMPLE_API_KEY_SECRET, EXAMPLE_SECRET_KEY } from './example-secrets';
import { ConfigError, loadConfig } from './load-config';

const minimal = { API_KEYS: 'k1:secret-one-0123456789,k2:secret-two-0123456789', ADMIN_PASSWORD: 'long-enough' };
const envExample = parseEnv(readFileSync(join(__dirname, '..', '..', '..', '.env.example'), 'utf8'));

/** The ConfigError `loadConfig(env)` throws; fails the test when it throws nothing. */
function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig(minimal);
    expect(config.auth.apiKeys).toEqual(
      new Map([
        ['k1', { secret: 'secret-one-0123456789', tenant: 'default' }],
        ['k2', { secret: 'secret-two-0123456789', tenant: 'default' }],
      ]),
    );
    expect(config.http).toEqual({ port: 3000, trustProxy: false });
    expect(config.admin).toEqual({ user: 'admin', password: 'long-enough', login: { maxFailures: 10, blockMs: 300000 } });
    expect(config.database).toEqual({ url: 'postgres://postgres@127.0.0.1:5432/punctual', poolSize: 20, statementTimeoutMs: 30000 });
    expect(config.tenantDefaults).toEqual({ maxActiveActions: 1_000_000, createRate: 1000, maxConcurrency: null });
    expect(config.calendars).toEqual({ maxPerTenant: 100 });
    expect(config.scheduling).toEqual({
      lockWindowMs: 120000,
      minRepeatIntervalMs: 1000,
      catchUp: { intervalMs: 1000, max: 100 },
      maxRetries: 3,
      backoff: { kind: 'exponential', baseMs: 1000, maxMs: 3600000 },
      retentionDays: 14,
      horizonMs: 600000,
      promoteIntervalMs: 1000,
      fairReleasePerSec: 10000,
      overdueGraceMs: 10000,
      claimLeaseMs: 30000,
      unknownTypeGraceMs: 600000,
    });
    expect(config.worker.actions).toBeNull();
    expect(config.smtp.url).toBeNull();
    expect(config.outbound.allowedHosts).toEqual({ names: [], ranges: [] });
    expect(config.worker.httpPort).toBe(9464);
    expect(config.logFormat).toBe('text');
    expect(config.metrics).toEqual({ enabled: true });
    expect(config.tracing).toEqual({ otlpEndpoint: null, sampling: { sampler: 'parentbased_always_on', ratio: 1 } });
  });

  it('reads the observability settings: JSON logs, any free worker port, metrics off, an OTLP collector', () => {
    const config = loadConfig({
      ...minimal,
      LOG_FORMAT: 'json',
      WORKER_HTTP_PORT: '0',
      METRICS_ENABLED: 'false',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
    });
    expect(config.logFormat).toBe('json');
    expect(config.worker.httpPort).toBe(0);
    expect(config.metrics.enabled).toBe(false);
    expect(config.tracing).toEqual({ otlpEndpoint: 'http://collector:4318', sampling: { sampler: 'parentbased_traceidratio', ratio: 0.25 } });
  });

  it.each([
    ['true', true],
    ['false', false],
    ['2', 2],
    ['loopback', ['loopback']],
    [' 10.0.0.0/8, fd00::/8 ,uniquelocal,192.0.2.1', ['10.0.0.0/8', 'fd00::/8', 'uniquelocal', '192.0.2.1']],
  ])('reads TRUST_PROXY=%s as the trust proxy setting %p', (value, trustProxy) => {
    expect(loadConfig({ ...minimal, TRUST_PROXY: value }).http.trustProxy).toEqual(trustProxy);
  });

  it('reads the outbound allow-list as names and address ranges', () => {
    const config = loadConfig({ ...minimal, OUTBOUND_ALLOWED_HOSTS: ' LocalHost., 127.0.0.1,10.1.0.0/16 , fd00::/8,hooks.internal,::1' });
    expect(config.outbound.allowedHosts).toEqual({
      names: ['localhost', 'hooks.internal'],
      ranges: [
        { network: '127.0.0.1', prefix: 32, family: 'ipv4' },
        { network: '10.1.0.0', prefix: 16, family: 'ipv4' },
        { network: 'fd00::', prefix: 8, family: 'ipv6' },
        { network: '::1', prefix: 128, family: 'ipv6' },
      ],
    });
  });

  it('serves RPC on REDIS_URL and sends MESSAGE actions through it unless told otherwise', () => {
    const config = loadConfig({ ...minimal, REDIS_URL: 'redis://127.0.0.1:6380/2' });
    expect(config.rpc).toEqual({
      transport: { kind: 'redis', url: 'redis://127.0.0.1:6380/2' },
      isQueueRedisByDefault: true,
      tenantInboxPrefix: '_INBOX_{tenant}',
      tenantInboxAlways: false,
    });
    expect(config.message.transports).toEqual(new Map([['default', { kind: 'redis', url: 'redis://127.0.0.1:6380/2' }]]));
  });

  it('reads REDIS_CLUSTER_NODES as the cluster to use instead of REDIS_URL, its first node serving RPC and MESSAGE by default', () => {
    const config = loadConfig({ ...minimal, REDIS_CLUSTER_NODES: ' 10.0.0.1:7000, rediss://user:pw@10.0.0.2:7001 ' });
    expect(config.redis).toEqual({
      url: 'redis://10.0.0.1:7000',
      clusterNodes: ['redis://10.0.0.1:7000', 'rediss://user:pw@10.0.0.2:7001'],
      queuePrefix: 'punctual',
    });
    expect(config.rpc.transport).toEqual({ kind: 'redis', url: 'redis://10.0.0.1:7000' });
    expect(config.message.transports.get('default')).toEqual({ kind: 'redis', url: 'redis://10.0.0.1:7000' });
    expect(loadConfig(minimal).redis.clusterNodes).toBeNull();
  });

  it('refuses a cluster node without a port, with a database, or of another scheme, naming the entry', () => {
    expect(configError({ ...minimal, REDIS_CLUSTER_NODES: '10.0.0.1:7000,10.0.0.2' }).problems).toEqual([
      'REDIS_CLUSTER_NODES entry 2 must be host:port (or a redis:// URL with a port and no database)',
    ]);
    expect(configError({ ...minimal, REDIS_CLUSTER_NODES: 'redis://10.0.0.1:7000/3' }).problems).toHaveLength(1);
    expect(configError({ ...minimal, REDIS_CLUSTER_NODES: 'nats://10.0.0.1:7000' }).problems).toHaveLength(1);
    expect(configError({ ...minimal, REDIS_CLUSTER_NODES: ' , ' }).problems).toEqual(['REDIS_CLUSTER_NODES must list at least one node as host:port']);
  });

  it('reads RPC_TRANSPORT_URL (nats, amqp or off) and the named MESSAGE_TRANSPORTS, keeping a listed default', () => {
    expect(loadConfig({ ...minimal, RPC_TRANSPORT_URL: 'nats://127.0.0.1:4222' }).rpc).toEqual({
      transport: { kind: 'nats', url: 'nats://127.0.0.1:4222' },
      isQueueRedisByDefault: false,
      tenantInboxPrefix: '_INBOX_{tenant}',
      tenantInboxAlways: false,
    });
    expect(loadConfig({ ...minimal, RPC_TENANT_INBOX_PREFIX: 'acme.{tenant}' }).rpc).toMatchObject({
      tenantInboxPrefix: 'acme.{tenant}',
      tenantInboxAlways: true,
    });
    expect(loadConfig({ ...minimal, RPC_TENANT_INBOX_PREFIX: '_INBOX_{tenant}' }).rpc.tenantInboxAlways).toBe(true);
    expect(loadConfig({ ...minimal, RPC_TENANT_INBOX_PREFIX: 'off' }).rpc.tenantInboxPrefix).toBeNull();
    expect(loadConfig({ ...minimal, RPC_TRANSPORT_URL: 'redis://127.0.0.1:6379' }).rpc.isQueueRedisByDefault).toBe(false);
    expect(loadConfig({ ...minimal, RPC_TRANSPORT_URL: 'amqps://punctual:pw@mq.internal/prod' }).rpc.transport).toEqual({
      kind: 'rmq',
      url: 'amqps://punctual:pw@mq.internal/prod',
    });
    expect(loadConfig({ ...minimal, RPC_TRANSPORT_URL: 'off' }).rpc.transport).toBeNull();
    const config = loadConfig({
      ...minimal,
      MESSAGE_TRANSPORTS: ' billing=nats://127.0.0.1:4222, default=redis://10.0.0.1:6379, ledger=amqp://mq/?queue=ledger, iot=mqtts://broker:8883 ',
    });
    expect(config.message.transports).toEqual(
      new Map([
        ['billing', { kind: 'nats', url: 'nats://127.0.0.1:4222' }],
        ['default', { kind: 'redis', url: 'redis://10.0.0.1:6379' }],
        ['ledger', { kind: 'rmq', url: 'amqp://mq/?queue=ledger' }],
        ['iot', { kind: 'mqtt', url: 'mqtts://broker:8883' }],
      ]),
    );
  });

  it('reads the admin login limit: failures allowed, and the window and block in ms', () => {
    const config = loadConfig({ ...minimal, ADMIN_LOGIN_MAX_FAILURES: '3', ADMIN_LOGIN_BLOCK_MS: '2000' });
    expect(config.admin.login).toEqual({ maxFailures: 3, blockMs: 2000 });
  });

  it('paces and caps RUN_ALL catch-ups by MIN_REPEAT_INTERVAL_MS and MAX_CATCH_UP', () => {
    const config = loadConfig({ ...minimal, MIN_REPEAT_INTERVAL_MS: '5000', MAX_CATCH_UP: '7' });
    expect(config.scheduling.catchUp).toEqual({ intervalMs: 5000, max: 7 });
  });

  it('reads an explicit backoff list and the served types', () => {
    const config = loadConfig({ ...minimal, BACKOFF_DELAYS_MS: '60000, 300000,1200000', WORKER_ACTIONS: 'HTTP_REQUEST' });
    expect(config.scheduling.backoff).toEqual({ kind: 'fixed-list', delaysMs: [60000, 300000, 1200000] });
    expect(config.worker.actions).toEqual(['HTTP_REQUEST']);
  });

  it.each([
    [{ ...minimal, API_KEYS: undefined }, 'API_KEYS is required but not set'],
    [{ ...minimal, API_KEYS: 'k1:secret-one-0123456789,no-secret' }, 'API_KEYS entry 2 is not keyId:secret'],
    [{ ...minimal, API_KEYS: 'k1:' }, 'API_KEYS entry 1 is not keyId:secret'],
    [{ ...minimal, API_KEYS: 'k1:secret-one-0123456789,k1:secret-two-0123456789' }, 'API_KEYS key "k1" is listed twice'],
    [{ ...minimal, ADMIN_PASSWORD: 'short' }, 'ADMIN_PASSWORD must be at least 8 characters'],
    [{ ...minimal, PORT: 'eighty' }, 'PORT Expected number'],
    [{ ...minimal, DATABASE_URL: 'mysql://x' }, 'DATABASE_URL must be a postgres: or postgresql:// URL'],
    [{ ...minimal, DATABASE_POOL_SIZE: '0' }, 'DATABASE_POOL_SIZE Number must be greater than 0'],
    [{ ...minimal, DATABASE_STATEMENT_TIMEOUT_MS: '30s' }, 'DATABASE_STATEMENT_TIMEOUT_MS Expected number'],
    [{ ...minimal, MAX_RETRIES: '-1' }, 'MAX_RETRIES Number must be greater than or equal to 0'],
    [{ ...minimal, MAX_CATCH_UP: '0' }, 'MAX_CATCH_UP Number must be greater than 0'],
    [{ ...minimal, ADMIN_LOGIN_MAX_FAILURES: '0' }, 'ADMIN_LOGIN_MAX_FAILURES Number must be greater than 0'],
    [{ ...minimal, ADMIN_LOGIN_BLOCK_MS: '500' }, 'ADMIN_LOGIN_BLOCK_MS Number must be greater than or equal to 1000'],
    [{ ...minimal, BACKOFF_DELAYS_MS: '1m,5m' }, 'BACKOFF_DELAYS_MS must be a comma-separated list of milliseconds'],
    [
      { ...minimal, OUTBOUND_ALLOWED_HOSTS: 'localhost,10.0.0.0/33' },
      'OUTBOUND_ALLOWED_HOSTS "10.0.0.0/33" is not a host name, an IP address or a CIDR range',
    ],
    [{ ...minimal, OUTBOUND_ALLOWED_HOSTS: '300.1.1.1' }, 'OUTBOUND_ALLOWED_HOSTS "300.1.1.1" is not a host name'],
    [{ ...minimal, OUTBOUND_ALLOWED_HOSTS: 'http://hooks.internal' }, 'OUTBOUND_ALLOWED_HOSTS "http://hooks.internal" is not a host name'],
    [{ ...minimal, OUTBOUND_ALLOWED_HOSTS: 'bad host' }, 'OUTBOUND_ALLOWED_HOSTS "bad host" is not a host name'],
    [{ ...minimal, TRUST_PROXY: 'yes' }, 'TRUST_PROXY "yes" is not true, false, a number of hops, an IP address, a CIDR range'],
    [{ ...minimal, TRUST_PROXY: 'loopback,10.0.0.0/33' }, 'TRUST_PROXY "10.0.0.0/33" is not true, false'],
    [{ ...minimal, TRUST_PROXY: ',' }, 'TRUST_PROXY must be true, false, a number of hops, or the addresses of the proxies'],
    [{ ...minimal, RPC_TRANSPORT_URL: 'mqtt://127.0.0.1' }, 'RPC_TRANSPORT_URL must be off, or a redis://, rediss://, nats://, amqp:// or amqps:// URL'],
    [
      { ...minimal, RPC_TENANT_INBOX_PREFIX: '_INBOX.>' },
      'RPC_TENANT_INBOX_PREFIX must be off, or NATS subject tokens with {tenant} in the last one, like _INBOX_{tenant}',
    ],
    [{ ...minimal, MESSAGE_TRANSPORTS: 'billing' }, 'MESSAGE_TRANSPORTS entry 1 must be name=url'],
    [
      { ...minimal, MESSAGE_TRANSPORTS: 'billing=http://x' },
      'MESSAGE_TRANSPORTS transport "billing" must have a redis://, rediss://, nats://, amqp://, amqps://, mqtt:// or mqtts:// URL',
    ],
    [{ ...minimal, MESSAGE_TRANSPORTS: 'a=nats://x,a=nats://y' }, 'MESSAGE_TRANSPORTS transport "a" is listed twice'],
    [{ ...minimal, BACKOFF_BASE_MS: '5000', BACKOFF_MAX_MS: '1000' }, 'BACKOFF_BASE_MS (5000) must not exceed BACKOFF_MAX_MS (1000)'],
    [{ ...minimal, LOG_FORMAT: 'pretty' }, "LOG_FORMAT Invalid enum value. Expected 'text' | 'json'"],
    [{ ...minimal, WORKER_HTTP_PORT: '70000' }, 'WORKER_HTTP_PORT Number must be less than or equal to 65535'],
    [{ ...minimal, METRICS_ENABLED: 'yes' }, "METRICS_ENABLED Invalid enum value. Expected 'true' | 'false'"],
    [{ ...minimal, OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, 'OTEL_EXPORTER_OTLP_ENDPOINT must be a http: or https:// URL'],
    [{ ...minimal, OTEL_TRACES_SAMPLER: 'sometimes' }, 'OTEL_TRACES_SAMPLER Invalid enum value'],
    [{ ...minimal, OTEL_TRACES_SAMPLER_ARG: '1.5' }, 'OTEL_TRACES_SAMPLER_ARG Number must be less than or equal to 1'],
  ])('names the variable and the problem (%#)', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('lists every problem at once', () => {
    expect(configError({ PORT: '0' }).problems).toEqual(
      expect.arrayContaining([expect.stringMatching(/^PORT /), 'API_KEYS is required but not set', 'ADMIN_PASSWORD is required but not set']),
    );
  });

  describe('API keys', () => {
    it('belong to the tenant given as a third field, or to the default tenant', () => {
      const keys = loadConfig({ ...minimal, API_KEYS: 'a:0123456789abcdef:team-a,b:0123456789abcdef' }).auth.apiKeys;
      expect([keys.get('a'), keys.get('b')]).toEqual([
        { secret: '0123456789abcdef', tenant: 'team-a' },
        { secret: '0123456789abcdef', tenant: 'default' },
      ]);
      expect(configError({ ...minimal, API_KEYS: 'a:0123456789abcdef:Team_A,b:0123456789abcdef:x:y' }).problems).toEqual([
        'API_KEYS key "a" names tenant "Team_A"; a tenant id is 1–64 characters of a–z, 0–9 and -',
        'API_KEYS entry 2 is not keyId:secret or keyId:secret:tenant',
      ]);
    });
  });

  describe('API secrets', () => {
    it('accepts a secret of 16 characters and refuses a shorter one, in every environment, naming the key but not the secret', () => {
      expect(loadConfig({ ...minimal, API_KEYS: 'k1:0123456789abcdef' }).auth.apiKeys.get('k1')?.secret).toBe('0123456789abcdef');
      for (const NODE_ENV of [undefined, 'development', 'production']) {
        const error = configError({ ...minimal, NODE_ENV, API_KEYS: 'k1:0123456789abcdef,k2:0123456789abcde' });
        expect(error.problems).toEqual(['API_KEYS key "k2" has a secret shorter than 16 characters']);
        expect(error.message).not.toContain('0123456789abcde');
      }
    });

    it('never echoes a malformed entry, which may be a secret pasted without its key id', () => {
      const error = configError({ ...minimal, API_KEYS: 'a-secret-pasted-alone' });
      expect(error.problems).toEqual(['API_KEYS entry 1 is not keyId:secret or keyId:secret:tenant']);
      expect(error.message).not.toContain('a-secret-pasted-alone');
    });
  });

  describe('the example secrets of .env.example', () => {
    it('are the ones this module knows', () => {
      expect(envExample.API_KEYS?.split(':')[1]).toBe(EXAMPLE_API_KEY_SECRET);
      expect(envExample.ADMIN_PASSWORD).toBe(EXAMPLE_ADMIN_PASSWORD);
      expect(envExample.SECRET_KEY).toBe(EXAMPLE_SECRET_KEY);
    });

    it('are enough to run outside production, so `cp .env.example .env` starts the apps', () => {
      const config = loadConfig(envExample);
      expect(config.auth.apiKeys.get('dev')?.secret).toBe(EXAMPLE_API_KEY_SECRET);
      expect(loadConfig({ ...envExample, NODE_ENV: 'development' }).admin.password).toBe(EXAMPLE_ADMIN_PASSWORD);
    });

    it('are refused in production, naming the variable and key id but not the secret', () => {
      const error = configError({ ...envExample, NODE_ENV: 'production' });
      expect(error.problems).toEqual([
        'API_KEYS key "dev" uses the example secret of .env.example; set a secret of your own',
        'ADMIN_PASSWORD is the example password of .env.example; set a password of your own',
        'SECRET_KEY lists the example key of .env.example; set a key of your own (openssl rand -base64 32)',
      ]);
      expect(error.message).not.toContain(EXAMPLE_SECRET_KEY);
      expect(error.message).not.toContain(EXAMPLE_API_KEY_SECRET);
      expect(error.message).not.toContain(EXAMPLE_ADMIN_PASSWORD);
    });

    it('are refused in production even beside a real key, which alone is accepted', () => {
      const own = 'ops:an-operator-chosen-secret';
      expect(configError({ ...minimal, NODE_ENV: 'production', API_KEYS: `${own},old:${EXAMPLE_API_KEY_SECRET}` }).problems).toEqual([
        'API_KEYS key "old" uses the example secret of .env.example; set a secret of your own',
      ]);
      expect(loadConfig({ ...minimal, NODE_ENV: 'production', API_KEYS: own }).auth.apiKeys.get('ops')?.secret).toBe('an-operator-chosen-secret');
    });
  });
});
