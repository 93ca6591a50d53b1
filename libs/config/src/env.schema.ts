import { existsSync } from 'node:fs';
import { z } from 'zod';
import { parseTransportUrl } from '@punctual/contract';
import { TRACE_SAMPLERS } from './punctual-config';
import { DEFAULT_TENANT, TENANT_ID_RULE, isTenantId } from '@app/domain';
import { parseAllowedHosts } from './allowed-hosts';
import { TENANT_INBOX_PREFIX_RULE, isTenantInboxPattern } from './tenant-inbox';
import { parseMessageTransports } from './transport-url';
import { parseTrustProxy } from './trust-proxy';

const positiveInt = z.coerce.number().int().positive();
const nonNegativeInt = z.coerce.number().int().nonnegative();

/**
 * Failed admin logins (console, Bull Board, admin API) one client address (and one IPv6 /64) may make within
 * `DEFAULT_ADMIN_LOGIN_BLOCK_MS` before all of `/admin` answers it 429 for as long again.
 */
export const DEFAULT_ADMIN_LOGIN_MAX_FAILURES = 10;
/** Both the window the failures are counted in and how long the address is then refused: 5 minutes. */
export const DEFAULT_ADMIN_LOGIN_BLOCK_MS = 5 * 60 * 1000;

/** A shorter HMAC secret is too easy to guess offline from one signed request. */
export const MIN_API_SECRET_LENGTH = 16;

/** An API key from the environment: its secret, and the tenant whose data it reads and writes. */
export interface ConfiguredApiKey {
  readonly secret: string;
  readonly tenant: string;
}

/**
 * `keyId:secret[:tenant],keyId2:secret2` → Map (a key without a tenant is the default tenant's; a
 * secret therefore holds no `:`). Problems name the entry's position or key id, never the secret:
 * boot errors end up in logs.
 */
const apiKeys = z
  .string()
  .min(1, 'must list at least one key as keyId:secret')
  .transform((raw, ctx) => {
    const keys = new Map<string, ConfiguredApiKey>();
    const entries = raw
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
    entries.forEach((entry, index) => {
      const [id, secret, tenant = DEFAULT_TENANT, ...rest] = entry.split(':');
      if (!id || !secret || rest.length > 0) {
        ctx.addIssue({ code: 'custom', message: `entry ${index + 1} is not keyId:secret or keyId:secret:tenant` });
      } else if (keys.has(id)) {
        ctx.addIssue({ code: 'custom', message: `key "${id}" is listed twice` });
      } else if (secret.length < MIN_API_SECRET_LENGTH) {
        ctx.addIssue({ code: 'custom', message: `key "${id}" has a secret shorter than ${MIN_API_SECRET_LENGTH} characters` });
      } else if (!isTenantId(tenant)) {
        ctx.addIssue({ code: 'custom', message: `key "${id}" names tenant "${tenant}"; a tenant id is ${TENANT_ID_RULE}` });
      }
      keys.set(id, { secret, tenant });
    });
    return keys;
  });

/** Comma-separated list of positive integers (milliseconds), e.g. `60000,300000,1200000`. */
const delayList = z
  .string()
  .regex(/^\s*\d+\s*(,\s*\d+\s*)*$/, 'must be a comma-separated list of milliseconds, e.g. 60000,300000')
  .transform((raw) => raw.split(',').map((d) => Number(d.trim())));

/**
 * `SECRET_KEY`: base64 of 32 random bytes, or several comma-separated while rotating (the first
 * encrypts, every one decrypts). Problems name the position, never the key.
 */
const secretKeys = z.string().transform((raw, ctx) => {
  const keys = raw
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean)
    .map((k) => Buffer.from(k, 'base64'));
  keys.forEach((key, index) => {
    if (key.length !== 32) ctx.addIssue({ code: 'custom', message: `key ${index + 1} is not base64 of 32 bytes (openssl rand -base64 32)` });
  });
  if (keys.length === 0) ctx.addIssue({ code: 'custom', message: 'must list at least one key' });
  return keys;
});

/** Comma-separated action types, e.g. `HTTP_REQUEST,SEND_NOTIFICATION`. */
const typeList = z
  .string()
  .regex(/^\s*[A-Z][A-Z0-9_]*\s*(,\s*[A-Z][A-Z0-9_]*\s*)*$/, 'must be a comma-separated list of action types, e.g. HTTP_REQUEST')
  .transform((raw) => raw.split(',').map((t) => t.trim()));

/** `TYPE=MAX/DURATION_MS,…`, e.g. `HTTP_REQUEST=5/1000`: at most MAX runs per DURATION_MS across all workers. */
const rateLimits = z
  .string()
  .regex(/^\s*[A-Z][A-Z0-9_]*=\d+\/\d+\s*(,\s*[A-Z][A-Z0-9_]*=\d+\/\d+\s*)*$/, 'must look like HTTP_REQUEST=5/1000,SEND_NOTIFICATION=100/1000')
  .transform((raw) => {
    const limits = new Map<string, { max: number; durationMs: number }>();
    for (const entry of raw.split(',')) {
      const [type, limit] = entry.trim().split('=');
      const [max, durationMs] = limit.split('/').map(Number);
      limits.set(type, { max, durationMs });
    }
    return limits;
  });

/** `OUTBOUND_ALLOWED_HOSTS`: host names, IP addresses and CIDR ranges, e.g. `localhost,127.0.0.1,10.1.0.0/16`. */
const allowedHosts = z.string().transform((raw, ctx) => {
  const parsed = parseAllowedHosts(raw);
  for (const problem of parsed.problems) ctx.addIssue({ code: 'custom', message: problem });
  return parsed.hosts;
});

/** `GRPC_PROTO_PATHS`: `.proto` files, comma-separated, that exist when the process starts. */
const protoPaths = z.string().transform((raw, ctx) => {
  const paths = raw
    .split(',')
    .map((path) => path.trim())
    .filter(Boolean);
  for (const path of paths) {
    if (!path.endsWith('.proto') || !existsSync(path)) ctx.addIssue({ code: 'custom', message: `${path} is not an existing .proto file` });
  }
  return paths;
});

const existingFile = z.string().refine((path) => existsSync(path), 'must name an existing file');

/** `TRUST_PROXY`: which peers may say, in X-Forwarded-* headers, whom and over what a request came from. */
const trustProxy = z.string().transform((raw, ctx) => {
  const parsed = parseTrustProxy(raw);
  for (const problem of parsed.problems) ctx.addIssue({ code: 'custom', message: problem });
  return parsed.trustProxy;
});

/**
 * `RPC_TRANSPORT_URL`: `off`, or the Redis, NATS or RabbitMQ URL the API serves its message patterns on.
 * Not MQTT: every subscriber of a topic gets each request, and replies go to a topic any client may read.
 */
const rpcTransport = z
  .string()
  .refine(
    (raw) => raw === 'off' || ['redis', 'nats', 'rmq'].includes(parseTransportUrl(raw)?.kind ?? ''),
    'must be off, or a redis://, rediss://, nats://, amqp:// or amqps:// URL',
  );

/** `RPC_TENANT_INBOX_PREFIX`: `off`, or where each tenant's replies go on NATS, `{tenant}` standing for its id. */
const tenantInboxPrefix = z.string().refine((raw) => raw === 'off' || isTenantInboxPattern(raw), `must be ${TENANT_INBOX_PREFIX_RULE}`);

/** `GRPC_URL`: `host:port` the API serves its gRPC service on, e.g. `0.0.0.0:50051` or `[::]:50051`. */
const grpcAddress = z
  .string()
  .regex(/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):([1-9]\d{0,4})$/, 'must be host:port, e.g. 0.0.0.0:50051')
  .refine((raw) => Number(raw.slice(raw.lastIndexOf(':') + 1)) <= 65535, 'must have a port from 1 to 65535');

/** `MESSAGE_TRANSPORTS`: `name=url,…`, the transports MESSAGE actions may name. */
const messageTransports = z.string().transform((raw, ctx) => {
  const parsed = parseMessageTransports(raw);
  for (const problem of parsed.problems) ctx.addIssue({ code: 'custom', message: problem });
  return parsed.transports;
});

const url = (protocols: string[]) =>
  z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    `must be a ${protocols.join(' or ')}// URL`,
  );

/**
 * `REDIS_CLUSTER_NODES`: `host:port,…` (or `redis://`/`rediss://` URLs) → the URL of each node. A
 * few nodes are enough: the client learns the rest from the cluster. The first entry's scheme,
 * user and password apply to every node.
 */
const redisClusterNodes = z.string().transform((raw, ctx) => {
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) ctx.addIssue({ code: 'custom', message: 'must list at least one node as host:port' });
  return entries.map((entry, index) => {
    const nodeUrl = entry.includes('://') ? entry : `redis://${entry}`;
    let parsed: URL | null = null;
    try {
      parsed = new URL(nodeUrl);
    } catch {
      // reported below
    }
    if (!parsed || !['redis:', 'rediss:'].includes(parsed.protocol) || !parsed.hostname || !parsed.port || parsed.pathname.length > 1) {
      ctx.addIssue({ code: 'custom', message: `entry ${index + 1} must be host:port (or a redis:// URL with a port and no database)` });
    }
    return nodeUrl;
  });
});

/** Every environment variable Punctual reads, with its default. `.env.example` mirrors this list. */
export const envSchema = z.object({
  // Only `production` changes anything: it refuses the example secrets of `.env.example`.
  NODE_ENV: z.string().optional(),
  DATABASE_URL: url(['postgres:', 'postgresql:']).default('postgres://postgres@127.0.0.1:5432/punctual'),
  DATABASE_POOL_SIZE: positiveInt.default(20),
  DATABASE_STATEMENT_TIMEOUT_MS: nonNegativeInt.default(30000),
  REDIS_URL: url(['redis:', 'rediss:']).default('redis://127.0.0.1:6379'),
  REDIS_CLUSTER_NODES: redisClusterNodes.optional(),
  QUEUE_PREFIX: z
    .string()
    .regex(/^[a-z0-9_-]+$/, 'must be lowercase letters, digits, - or _')
    .default('punctual'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  // Unset, no proxy is trusted: X-Forwarded-* headers are ignored.
  TRUST_PROXY: trustProxy.optional(),
  API_KEYS: apiKeys,
  ADMIN_USER: z.string().min(1).default('admin'),
  ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters'),
  ADMIN_LOGIN_MAX_FAILURES: positiveInt.default(DEFAULT_ADMIN_LOGIN_MAX_FAILURES),
  // Counted in whole seconds (Redis expiries), so at least one.
  ADMIN_LOGIN_BLOCK_MS: z.coerce.number().int().min(1000).default(DEFAULT_ADMIN_LOGIN_BLOCK_MS),
  LOCK_WINDOW_MS: nonNegativeInt.default(120000),
  MIN_REPEAT_INTERVAL_MS: nonNegativeInt.default(1000),
  MAX_CATCH_UP: positiveInt.default(100),
  TENANT_MAX_ACTIVE_ACTIONS: positiveInt.default(1_000_000),
  TENANT_CREATE_RATE: positiveInt.default(1000),
  // Unset: a tenant's attempts are not limited beyond each worker's concurrency.
  TENANT_MAX_CONCURRENCY: positiveInt.optional(),
  TENANT_MAX_CALENDARS: positiveInt.default(100),
  MAX_RETRIES: nonNegativeInt.default(3),
  BACKOFF_BASE_MS: positiveInt.default(1000),
  BACKOFF_MAX_MS: positiveInt.default(3600000),
  BACKOFF_DELAYS_MS: delayList.optional(),
  RETENTION_DAYS: positiveInt.default(14),
  SCHEDULE_HORIZON_MS: positiveInt.default(600000),
  PROMOTE_INTERVAL_MS: positiveInt.default(1000),
  // Of a tenant's jobs of one type due in one second, at most this many are released per second from its start (0: no pacing).
  FAIR_RELEASE_PER_SEC: nonNegativeInt.default(10000),
  OVERDUE_GRACE_MS: positiveInt.default(10000),
  CLAIM_LEASE_MS: positiveInt.default(30000),
  // A due action ends NO_ACTION only after this long (ms) during which no live worker knew its type: a rolling deploy's window.
  UNKNOWN_TYPE_GRACE_MS: positiveInt.default(600000),
  SMTP_URL: url(['smtp:', 'smtps:']).optional(),
  SMTP_FROM: z.string().min(3).default('Punctual <no-reply@localhost>'),
  SMTP_TIMEOUT_MS: positiveInt.default(10000),
  WORKER_ACTIONS: typeList.optional(),
  WORKER_CONCURRENCY: positiveInt.default(10),
  ACTION_RATE_LIMITS: rateLimits.optional(),
  OUTBOUND_ALLOWED_HOSTS: allowedHosts.optional(),
  // GRPC actions: protos that name services besides what targets tell by reflection, and a CA trusted besides the system's.
  GRPC_PROTO_PATHS: protoPaths.optional(),
  GRPC_CA_FILE: existingFile.optional(),
  RPC_TRANSPORT_URL: rpcTransport.optional(),
  RPC_TENANT_INBOX_PREFIX: tenantInboxPrefix.optional(),
  // Unset, the API serves no gRPC; with both TLS files, it serves gRPC over TLS only.
  GRPC_URL: grpcAddress.optional(),
  GRPC_TLS_CERT_FILE: z.string().min(1).optional(),
  GRPC_TLS_KEY_FILE: z.string().min(1).optional(),
  MESSAGE_TRANSPORTS: messageTransports.optional(),
  SECRET_KEY: secretKeys.optional(),
  // The older name of SECRET_KEY, read when SECRET_KEY is not set.
  WEBHOOK_SECRET_KEY: secretKeys.optional(),
  WEBHOOK_BACKOFF_DELAYS_MS: delayList.prefault('5000,30000,120000,600000,1800000,3600000,10800000,21600000,43200000,86400000'),
  WEBHOOK_TIMEOUT_MS: positiveInt.default(10000),
  WEBHOOK_CONCURRENCY: positiveInt.default(50),
  WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION: positiveInt.default(10),
  SHUTDOWN_TIMEOUT_MS: positiveInt.default(30000),
  LOG_LEVEL: z.enum(['error', 'warn', 'log', 'debug', 'verbose']).default('log'),
  // `json` writes one JSON object per line for log shippers; `text` stays readable in a terminal.
  LOG_FORMAT: z.enum(['text', 'json']).default('text'),
  // The worker's own HTTP port (metrics and health); 0 takes any free port, so several workers can share a host.
  WORKER_HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  METRICS_ENABLED: z.enum(['true', 'false']).default('true'),
  // Tracing is off unless an OTLP/HTTP collector is named, e.g. http://otel-collector:4318.
  OTEL_EXPORTER_OTLP_ENDPOINT: url(['http:', 'https:']).optional(),
  // Which traces are recorded, by OpenTelemetry's standard sampler names; the ratio samplers keep OTEL_TRACES_SAMPLER_ARG of them.
  OTEL_TRACES_SAMPLER: z.enum(TRACE_SAMPLERS).default('parentbased_always_on'),
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).default(1),
});

export type Env = z.output<typeof envSchema>;
