import { z } from 'zod';

const positiveInt = z.coerce.number().int().positive();
const nonNegativeInt = z.coerce.number().int().nonnegative();

/** `keyId:secret,keyId2:secret2` → Map; ids and secrets must be non-empty. */
const apiKeys = z
  .string()
  .min(1, 'must list at least one key as keyId:secret')
  .transform((raw, ctx) => {
    const keys = new Map<string, string>();
    for (const pair of raw.split(',').map((p) => p.trim()).filter(Boolean)) {
      const separator = pair.indexOf(':');
      const id = pair.slice(0, separator);
      const secret = pair.slice(separator + 1);
      if (separator < 1 || !secret) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: `"${pair}" is not keyId:secret` });
        return z.NEVER;
      }
      keys.set(id, secret);
    }
    return keys;
  });

/** Comma-separated list of positive integers (milliseconds), e.g. `60000,300000,1200000`. */
const delayList = z
  .string()
  .regex(/^\s*\d+\s*(,\s*\d+\s*)*$/, 'must be a comma-separated list of milliseconds, e.g. 60000,300000')
  .transform((raw) => raw.split(',').map((d) => Number(d.trim())));

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

const url = (protocols: string[]) =>
  z.string().refine((value) => {
    try {
      return protocols.includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, `must be a ${protocols.join(' or ')}// URL`);

/** Every environment variable Punctual reads, with its default. `.env.example` mirrors this list. */
export const envSchema = z.object({
  DATABASE_URL: url(['postgres:', 'postgresql:']).default('postgres://postgres@127.0.0.1:5432/punctual'),
  REDIS_URL: url(['redis:', 'rediss:']).default('redis://127.0.0.1:6379'),
  QUEUE_PREFIX: z.string().regex(/^[a-z0-9_-]+$/, 'must be lowercase letters, digits, - or _').default('punctual'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  API_KEYS: apiKeys,
  ADMIN_USER: z.string().min(1).default('admin'),
  ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters'),
  LOCK_WINDOW_MS: nonNegativeInt.default(120000),
  MAX_RETRIES: nonNegativeInt.default(3),
  BACKOFF_BASE_MS: positiveInt.default(1000),
  BACKOFF_MAX_MS: positiveInt.default(3600000),
  BACKOFF_DELAYS_MS: delayList.optional(),
  RETENTION_DAYS: positiveInt.default(14),
  SCHEDULE_HORIZON_MS: positiveInt.default(600000),
  PROMOTE_INTERVAL_MS: positiveInt.default(1000),
  OVERDUE_GRACE_MS: positiveInt.default(10000),
  CLAIM_LEASE_MS: positiveInt.default(30000),
  SMTP_URL: url(['smtp:', 'smtps:']).optional(),
  SMTP_FROM: z.string().min(3).default('Punctual <no-reply@localhost>'),
  WORKER_ACTIONS: typeList.optional(),
  WORKER_CONCURRENCY: positiveInt.default(10),
  ACTION_RATE_LIMITS: rateLimits.optional(),
  SHUTDOWN_TIMEOUT_MS: positiveInt.default(30000),
  LOG_LEVEL: z.enum(['error', 'warn', 'log', 'debug', 'verbose']).default('log'),
});

export type Env = z.output<typeof envSchema>;
