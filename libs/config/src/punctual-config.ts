import { BackoffPolicy } from './backoff-policy';

/**
 * The typed, validated configuration. Injected by class token:
 * `constructor(private readonly config: PunctualConfig)`.
 */
export abstract class PunctualConfig {
  abstract readonly database: { readonly url: string };
  abstract readonly redis: { readonly url: string; readonly queuePrefix: string };
  abstract readonly http: { readonly port: number };
  abstract readonly auth: {
    /** keyId → secret; several at once so a secret can be rotated without downtime. */
    readonly apiKeys: ReadonlyMap<string, string>;
    /** How far a request's timestamp may be from the server clock, either way. */
    readonly signatureWindowSeconds: number;
  };
  abstract readonly admin: { readonly user: string; readonly password: string };
  abstract readonly scheduling: {
    readonly lockWindowMs: number;
    readonly maxRetries: number;
    readonly backoff: BackoffPolicy;
    readonly retentionDays: number;
    /** Only actions due within this horizon are queued in Redis; later ones wait in Postgres. */
    readonly horizonMs: number;
    /** How often a worker moves actions entering the horizon into the queues. */
    readonly promoteIntervalMs: number;
    /** A PENDING action this late without running has probably lost its job and is queued again. */
    readonly overdueGraceMs: number;
    /**
     * How long a running attempt is trusted before another worker may take it over. The queue
     * re-delivers a job only after its lock (renewed while the worker lives) has been lost for
     * this long, so a takeover means the first worker died mid-run.
     */
    readonly claimLeaseMs: number;
  };
  abstract readonly worker: {
    /** Action types this worker serves; null means every registered type. */
    readonly actions: readonly string[] | null;
    readonly concurrency: number;
    /** Per-type rate limits from the environment; they win over a fulfillment's own. */
    readonly rateLimits: ReadonlyMap<string, { readonly max: number; readonly durationMs: number }>;
    /** How long a stopping worker waits for running fulfillments. */
    readonly shutdownTimeoutMs: number;
  };
  abstract readonly smtp: { readonly url: string | null; readonly from: string };
  abstract readonly logLevel: 'error' | 'warn' | 'log' | 'debug' | 'verbose';
}
