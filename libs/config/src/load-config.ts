import { ZodError } from 'zod';
import { TransportUrl, parseTransportUrl } from '@punctual/contract';
import { NO_ALLOWED_HOSTS } from './allowed-hosts';
import { envIssueMessage } from './env-messages';
import { envSchema } from './env.schema';
import { exampleSecretProblems } from './example-secrets';
import { PunctualConfig } from './punctual-config';
import { DEFAULT_TENANT_INBOX_PREFIX } from './tenant-inbox';
import { DEFAULT_MESSAGE_TRANSPORT } from './transport-url';

/** Thrown at boot when the environment is incomplete or malformed; the message names each variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

function describe(error: ZodError, present: Record<string, string | undefined>): string[] {
  return error.issues.map((issue) => {
    const variable = issue.path.join('.');
    const message = issue.code === 'invalid_type' && present[variable] === undefined ? 'is required but not set' : issue.message;
    return `${variable} ${message}`;
  });
}

/**
 * The database the processes of this environment use: `DATABASE_URL` as the API and the worker
 * read it (with its default), for a migration that must reach the same database. Throws a
 * `ConfigError` naming the variable when it is malformed.
 */
export function loadDatabaseUrl(source: NodeJS.ProcessEnv = process.env): string {
  const present = source.DATABASE_URL ? { DATABASE_URL: source.DATABASE_URL } : {};
  const parsed = envSchema.pick({ DATABASE_URL: true }).safeParse(present, { error: envIssueMessage });
  if (!parsed.success) throw new ConfigError(describe(parsed.error, present));
  return parsed.data.DATABASE_URL;
}

/** Validates the environment once and returns the typed configuration. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): PunctualConfig {
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = envSchema.safeParse(present, { error: envIssueMessage });
  if (!parsed.success) throw new ConfigError(describe(parsed.error, present));
  const env = parsed.data;
  const problems = env.NODE_ENV === 'production' ? exampleSecretProblems(env) : [];
  if (env.BACKOFF_BASE_MS > env.BACKOFF_MAX_MS) {
    problems.push(`BACKOFF_BASE_MS (${env.BACKOFF_BASE_MS}) must not exceed BACKOFF_MAX_MS (${env.BACKOFF_MAX_MS})`);
  }
  if ((env.GRPC_TLS_CERT_FILE === undefined) !== (env.GRPC_TLS_KEY_FILE === undefined)) {
    problems.push('GRPC_TLS_CERT_FILE and GRPC_TLS_KEY_FILE must be set together');
  }
  if (problems.length) throw new ConfigError(problems);
  const redis = redisSettings(env.REDIS_URL, env.REDIS_CLUSTER_NODES, env.QUEUE_PREFIX);
  return {
    database: { url: env.DATABASE_URL, poolSize: env.DATABASE_POOL_SIZE, statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS },
    redis,
    http: { port: env.PORT, trustProxy: env.TRUST_PROXY ?? false },
    auth: { apiKeys: env.API_KEYS, signatureWindowSeconds: 300 },
    admin: {
      user: env.ADMIN_USER,
      password: env.ADMIN_PASSWORD,
      login: { maxFailures: env.ADMIN_LOGIN_MAX_FAILURES, blockMs: env.ADMIN_LOGIN_BLOCK_MS },
    },
    tenantDefaults: {
      maxActiveActions: env.TENANT_MAX_ACTIVE_ACTIONS,
      createRate: env.TENANT_CREATE_RATE,
      maxConcurrency: env.TENANT_MAX_CONCURRENCY ?? null,
    },
    calendars: { maxPerTenant: env.TENANT_MAX_CALENDARS },
    scheduling: {
      lockWindowMs: env.LOCK_WINDOW_MS,
      minRepeatIntervalMs: env.MIN_REPEAT_INTERVAL_MS,
      catchUp: { intervalMs: env.MIN_REPEAT_INTERVAL_MS, max: env.MAX_CATCH_UP },
      maxRetries: env.MAX_RETRIES,
      backoff: env.BACKOFF_DELAYS_MS
        ? { kind: 'fixed-list', delaysMs: env.BACKOFF_DELAYS_MS }
        : { kind: 'exponential', baseMs: env.BACKOFF_BASE_MS, maxMs: env.BACKOFF_MAX_MS },
      retentionDays: env.RETENTION_DAYS,
      horizonMs: env.SCHEDULE_HORIZON_MS,
      promoteIntervalMs: env.PROMOTE_INTERVAL_MS,
      fairReleasePerSec: env.FAIR_RELEASE_PER_SEC,
      overdueGraceMs: env.OVERDUE_GRACE_MS,
      claimLeaseMs: env.CLAIM_LEASE_MS,
      unknownTypeGraceMs: env.UNKNOWN_TYPE_GRACE_MS,
    },
    worker: {
      actions: env.WORKER_ACTIONS ?? null,
      concurrency: env.WORKER_CONCURRENCY,
      rateLimits: env.ACTION_RATE_LIMITS ?? new Map(),
      shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
      httpPort: env.WORKER_HTTP_PORT,
    },
    outbound: {
      allowedHosts: env.OUTBOUND_ALLOWED_HOSTS ?? NO_ALLOWED_HOSTS,
      grpcProtoPaths: env.GRPC_PROTO_PATHS ?? [],
      grpcCaFile: env.GRPC_CA_FILE ?? null,
    },
    rpc: {
      transport: env.RPC_TRANSPORT_URL === 'off' ? null : parseTransportUrl(env.RPC_TRANSPORT_URL ?? redis.url),
      isQueueRedisByDefault: env.RPC_TRANSPORT_URL === undefined,
      tenantInboxPrefix: env.RPC_TENANT_INBOX_PREFIX === 'off' ? null : (env.RPC_TENANT_INBOX_PREFIX ?? DEFAULT_TENANT_INBOX_PREFIX),
      tenantInboxAlways: env.RPC_TENANT_INBOX_PREFIX !== undefined && env.RPC_TENANT_INBOX_PREFIX !== 'off',
    },
    grpc: {
      address: env.GRPC_URL ?? null,
      tls: env.GRPC_TLS_CERT_FILE && env.GRPC_TLS_KEY_FILE ? { certFile: env.GRPC_TLS_CERT_FILE, keyFile: env.GRPC_TLS_KEY_FILE } : null,
    },
    message: { transports: messageTransports(env.MESSAGE_TRANSPORTS, redis.url) },
    secretKeys: env.SECRET_KEY ?? env.WEBHOOK_SECRET_KEY ?? [],
    webhooks: {
      backoffDelaysMs: env.WEBHOOK_BACKOFF_DELAYS_MS,
      timeoutMs: env.WEBHOOK_TIMEOUT_MS,
      concurrency: env.WEBHOOK_CONCURRENCY,
      concurrencyPerTarget: env.WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION,
    },
    smtp: { url: env.SMTP_URL ?? null, from: env.SMTP_FROM, timeoutMs: env.SMTP_TIMEOUT_MS },
    logLevel: env.LOG_LEVEL,
    logFormat: env.LOG_FORMAT,
    metrics: { enabled: env.METRICS_ENABLED === 'true' },
    tracing: {
      otlpEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT ?? null,
      sampling: { sampler: env.OTEL_TRACES_SAMPLER, ratio: env.OTEL_TRACES_SAMPLER_ARG },
    },
  };
}

/** The configured transports, with `default` on `REDIS_URL` unless the list names one. */
/**
 * Punctual's Redis: one server, or a cluster's nodes. On a cluster, `url` is its first node, where
 * the transports that default to Punctual's Redis publish and subscribe: Redis Cluster carries
 * pub/sub messages to every node.
 */
function redisSettings(url: string, clusterNodes: readonly string[] | undefined, queuePrefix: string): PunctualConfig['redis'] {
  if (!clusterNodes) return { url, clusterNodes: null, queuePrefix };
  return { url: clusterNodes[0], clusterNodes, queuePrefix };
}

function messageTransports(listed: ReadonlyMap<string, TransportUrl> | undefined, redisUrl: string): ReadonlyMap<string, TransportUrl> {
  const transports = new Map(listed ?? []);
  if (!transports.has(DEFAULT_MESSAGE_TRANSPORT)) transports.set(DEFAULT_MESSAGE_TRANSPORT, { kind: 'redis', url: redisUrl });
  return transports;
}
