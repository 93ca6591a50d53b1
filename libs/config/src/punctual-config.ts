import { BackoffPolicy, CatchUpPolicy } from '@app/domain';
import { AllowedHosts } from './allowed-hosts';
import type { ConfiguredApiKey } from './env.schema';
import { TransportUrl } from '@punctual/contract';
import { TrustProxy } from './trust-proxy';

export type { ConfiguredApiKey };

/**
 * The typed, validated configuration. Injected by class token:
 * `constructor(private readonly config: PunctualConfig)`.
 */
export abstract class PunctualConfig {
  abstract readonly database: {
    readonly url: string;
    /** Connections each process keeps open at most. */
    readonly poolSize: number;
    /** Postgres cancels a statement running longer than this (0: never), so a stuck query cannot hold a connection forever. */
    readonly statementTimeoutMs: number;
  };
  abstract readonly redis: {
    /** The Redis server; on a cluster, its first node (see `redisConnection`). */
    readonly url: string;
    /** The URLs of a Redis Cluster's nodes (`REDIS_CLUSTER_NODES`), or null for one server. */
    readonly clusterNodes: readonly string[] | null;
    /** Prefix of every key Punctual writes. */
    readonly queuePrefix: string;
  };
  abstract readonly http: {
    readonly port: number;
    /** The proxies whose X-Forwarded-* headers are believed (Express's `trust proxy`); false trusts none. */
    readonly trustProxy: TrustProxy;
  };
  abstract readonly auth: {
    /** keyId → its secret and tenant; several at once so a secret can be rotated without downtime. */
    readonly apiKeys: ReadonlyMap<string, ConfiguredApiKey>;
    /** How far a request's timestamp may be from the server clock, either way. */
    readonly signatureWindowSeconds: number;
  };
  abstract readonly admin: {
    readonly user: string;
    readonly password: string;
    /**
     * After `maxFailures` failed logins from one client address (or IPv6 /64) within `blockMs`, every
     * `/admin` request from it answers 429 for `blockMs`; the counts live in Redis, shared by API processes.
     */
    readonly login: { readonly maxFailures: number; readonly blockMs: number };
  };
  /** What each tenant may do unless its own limits say otherwise (admin API). */
  abstract readonly tenantDefaults: {
    /** Its actions that may be PENDING or IN_PROGRESS at once. */
    readonly maxActiveActions: number;
    /** Creates per second, with bursts of ten times as many. */
    readonly createRate: number;
    /** Attempts running at once across all workers; null: no limit. */
    readonly maxConcurrency: number | null;
  };
  abstract readonly calendars: {
    /** The calendars one tenant may keep; creating another is refused until one is deleted. */
    readonly maxPerTenant: number;
  };
  abstract readonly scheduling: {
    readonly lockWindowMs: number;
    /** A repeating schedule whose occurrences can come closer than this is refused. */
    readonly minRepeatIntervalMs: number;
    /** RUN_ALL catch-ups: one per `minRepeatIntervalMs` at most, and only the latest MAX_CATCH_UP missed occurrences. */
    readonly catchUp: CatchUpPolicy;
    readonly maxRetries: number;
    readonly backoff: BackoffPolicy;
    readonly retentionDays: number;
    /** Only actions due within this horizon are queued in Redis; later ones wait in Postgres. */
    readonly horizonMs: number;
    /** How often a worker moves actions entering the horizon into the queues. */
    readonly promoteIntervalMs: number;
    /**
     * The pace at which a tenant's jobs of one type, due in one second, become runnable in Redis:
     * the n-th no sooner than n ÷ this after the second began (fair-share.ts). 0: no pacing.
     */
    readonly fairReleasePerSec: number;
    /** A PENDING action this late without running has probably lost its job and is queued again. */
    readonly overdueGraceMs: number;
    /**
     * How long a running attempt is trusted before another worker may take it over. The queue
     * re-delivers a job only after its lock (renewed while the worker lives) has been lost for
     * this long, so a takeover means the first worker died mid-run.
     */
    readonly claimLeaseMs: number;
    /**
     * A due action becomes NO_ACTION only once it has been due this long during which no live
     * worker knew its type, so a rolling deploy of a new type ends none of its actions.
     */
    readonly unknownTypeGraceMs: number;
  };
  abstract readonly worker: {
    /** Action types this worker serves; null means every registered type. */
    readonly actions: readonly string[] | null;
    readonly concurrency: number;
    /** Per-type rate limits from the environment; they win over a fulfillment's own. */
    readonly rateLimits: ReadonlyMap<string, { readonly max: number; readonly durationMs: number }>;
    /** How long a stopping worker waits for running fulfillments. */
    readonly shutdownTimeoutMs: number;
    /** Port of the worker's metrics and health server; 0 means any free port. */
    readonly httpPort: number;
  };
  abstract readonly outbound: {
    /**
     * Internal destinations (loopback, private, link-local…) that HTTP_REQUEST calls and webhook
     * deliveries may still reach; every other internal address is refused.
     */
    readonly allowedHosts: AllowedHosts;
    /** `.proto` files whose services GRPC actions may call without asking the target's reflection service. */
    readonly grpcProtoPaths: readonly string[];
    /** A PEM file of CAs that GRPC actions with `tls` trust besides the system's; null for none. */
    readonly grpcCaFile: string | null;
  };
  abstract readonly rpc: {
    /** Where the API serves its message patterns to sibling apps; null when turned off. */
    readonly transport: TransportUrl | null;
    /**
     * RPC_TRANSPORT_URL is unset, so `transport` is Punctual's own Redis: served only while a single
     * tenant holds keys, since every client of that Redis reads and answers every message on it.
     */
    readonly isQueueRedisByDefault: boolean;
    /**
     * On NATS, the inbox prefix of each tenant (`{tenant}` standing for its id): a request is answered,
     * and handled, only when its reply subject lies under the prefix of the tenant whose key signed it.
     * Null (`off`): replies go wherever a request asks, as on a NATS server that is one trust domain.
     */
    readonly tenantInboxPrefix: string | null;
    /**
     * Set explicitly: replies are held to the prefix always. Left unset: only while keys of two or
     * more tenants are valid, so one tenant's plain NestJS clients (NATS's default inbox) keep working.
     */
    readonly tenantInboxAlways: boolean;
  };
  abstract readonly grpc: {
    /** `host:port` of the API's gRPC service for sibling apps (`GRPC_URL`); null when not served. */
    readonly address: string | null;
    /** The certificate chain and private key (PEM files) it serves TLS with; null: plaintext. */
    readonly tls: { readonly certFile: string; readonly keyFile: string } | null;
  };
  abstract readonly message: {
    /** The transports MESSAGE actions may name (`default` always among them); nothing else is reachable. */
    readonly transports: ReadonlyMap<string, TransportUrl>;
  };
  /**
   * The key ring (SECRET_KEY) that encrypts secrets at rest (webhook subscriptions', API keys'): the
   * first encrypts, all decrypt. Empty: neither can be created.
   */
  abstract readonly secretKeys: readonly Buffer[];
  abstract readonly webhooks: {
    /** Delay before each retry of a failed delivery; after the last one the delivery is FAILED. */
    readonly backoffDelaysMs: readonly number[];
    /** The whole exchange with a receiver, connecting included. */
    readonly timeoutMs: number;
    /** Deliveries one worker runs at once, and at most this many to any one subscription or callback URL. */
    readonly concurrency: number;
    readonly concurrencyPerTarget: number;
  };
  abstract readonly smtp: {
    readonly url: string | null;
    readonly from: string;
    /** One EMAIL notification's send, connecting included. */
    readonly timeoutMs: number;
  };
  abstract readonly logLevel: 'error' | 'warn' | 'log' | 'debug' | 'verbose';
  /** `text` for people, `json` (one object per line) for log shippers. */
  abstract readonly logFormat: 'text' | 'json';
  /** Off, nothing is recorded and `/metrics` answers 404. */
  abstract readonly metrics: { readonly enabled: boolean };
  /** Where spans are exported (OTLP over HTTP); null means tracing is off. Which traces are recorded. */
  abstract readonly tracing: { readonly otlpEndpoint: string | null; readonly sampling: TraceSampling };
}

/** OpenTelemetry's standard sampler names (OTEL_TRACES_SAMPLER). */
export const TRACE_SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

/** A sampler and, for the ratio-based ones, the share of traces recorded (0 to 1). */
export interface TraceSampling {
  readonly sampler: (typeof TRACE_SAMPLERS)[number];
  readonly ratio: number;
}
