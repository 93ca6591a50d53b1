import { Inject, Injectable } from '@nestjs/common';
import { ATTEMPT_OUTCOMES, AttemptOutcome, SKIP_REASONS, SkipReason } from '@app/domain';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { PunctualConfig } from '@app/config';
import { processMetricsRegistry } from './process-metrics';

/** The names of the action types this deployment knows, provided by `ObservabilityModule.forRoot`. */
export const METRICS_ACTION_TYPES = Symbol('METRICS_ACTION_TYPES');
/** Which kind of process this is, provided by `ObservabilityModule.forRoot`. */
export const METRICS_PROCESS = Symbol('METRICS_PROCESS');
/** The kinds of process that export metrics: each exports only the series it can count. */
export type MetricsProcess = 'api' | 'worker';

/** How a delivery attempt ended: `failed` counts every failed attempt, retried or not. */
export const WEBHOOK_OUTCOMES = ['succeeded', 'failed'] as const;
export type WebhookOutcome = (typeof WEBHOOK_OUTCOMES)[number];

/** Why an API left a message request unanswered: its reply subject lay outside its tenant's inbox, or its signature did not verify. */
export const WITHHELD_REPLY_REASONS = ['outside_tenant_inbox', 'unverified'] as const;
export type WithheldReplyReason = (typeof WITHHELD_REPLY_REASONS)[number];

/** 1 ms to 10 min: a healthy system lives in the first buckets, a stalled one in the last. */
export const FIRING_LAG_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];
const HTTP_DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Punctual's Prometheus metrics. Every process registers the names it can count, the same in
 * every process of its kind, so dashboards sum over all of them; the series only workers count
 * (attempts, firing lag, overdue actions, webhook deliveries) are not exported by an API, where
 * they would read 0 as if that were a fact. Label values are bounded: action types, outcomes, route
 * templates, methods and status codes, never ids or URLs. With METRICS_ENABLED=false nothing is
 * recorded.
 */
@Injectable()
export class PunctualMetrics {
  private readonly registry = new Registry();
  private readonly enabled: boolean;
  private readonly created: Counter<'action'>;
  private readonly attempts: Counter<'action' | 'outcome'>;
  private readonly firingLagSeconds: Histogram<'action'>;
  private readonly overdue: Gauge;
  private readonly ready: Gauge;
  private readonly webhookDeliveries: Counter<'outcome'>;
  private readonly skippedOccurrences: Counter<'action' | 'reason'>;
  private readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  private readonly withheldReplies: Counter<'reason'>;

  constructor(config: PunctualConfig, @Inject(METRICS_ACTION_TYPES) actionTypes: readonly string[], @Inject(METRICS_PROCESS) process: MetricsProcess) {
    this.enabled = config.metrics.enabled;
    const registers = [this.registry];
    // Kept unregistered in an API: nothing there records them, and they are not exported.
    const workerRegisters = process === 'worker' ? registers : [];
    const apiRegisters = process === 'api' ? registers : [];
    this.created = new Counter({
      name: 'punctual_actions_created_total',
      help: 'Actions stored, by type and tenant',
      labelNames: ['action', 'tenant'],
      registers,
    });
    this.attempts = new Counter({
      name: 'punctual_attempts_total',
      help: 'Attempts whose outcome was recorded, by type, outcome and tenant (an attempt interrupted by a dying worker counts as failed)',
      labelNames: ['action', 'outcome', 'tenant'],
      registers: workerRegisters,
    });
    this.firingLagSeconds = new Histogram({
      name: 'punctual_firing_lag_seconds',
      help: 'How late an attempt started: its start minus the time it was due, or became runnable when that was later',
      labelNames: ['action'],
      buckets: FIRING_LAG_BUCKETS,
      registers: workerRegisters,
    });
    this.overdue = new Gauge({
      name: 'punctual_overdue_actions',
      help: 'PENDING actions due more than OVERDUE_GRACE_MS ago; set by one worker at a time, 0 in every other process (aggregate with max)',
      registers: workerRegisters,
    });
    this.ready = new Gauge({
      name: 'punctual_ready',
      help: "Whether this process passed its readiness check (Postgres, Redis, and a worker's queue consumers) when last checked, every few seconds",
      registers,
    });
    this.webhookDeliveries = new Counter({
      name: 'punctual_webhook_deliveries_total',
      help: 'Lifecycle webhook delivery attempts, by outcome (succeeded: a 2xx answer or a sent email)',
      labelNames: ['outcome'],
      registers: workerRegisters,
    });
    this.skippedOccurrences = new Counter({
      name: 'punctual_occurrences_skipped_total',
      help: 'Occurrences that did not run, by type and reason (request, calendar, dst, misfire)',
      labelNames: ['action', 'reason'],
      registers,
    });
    this.httpDuration = new Histogram({
      name: 'punctual_http_request_duration_seconds',
      help: 'API requests by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: HTTP_DURATION_BUCKETS,
      registers,
    });
    this.withheldReplies = new Counter({
      name: 'punctual_rpc_replies_withheld_total',
      help: 'Message requests left unanswered on NATS, by reason (outside_tenant_inbox: a reply subject outside the signer tenant’s inbox; unverified: no valid signature)',
      labelNames: ['reason'],
      registers: apiRegisters,
    });
    // Series that exist from the start at 0, so that rate() and increase() see their first events.
    // The tenants of API_KEYS are known from the start; one made at run time gets its series with its first event.
    const tenants = [...new Set([...config.auth.apiKeys.values()].map((key) => key.tenant))].sort();
    for (const action of [...actionTypes].sort()) {
      this.firingLagSeconds.zero({ action });
      for (const tenant of tenants) {
        this.created.labels(action, tenant).inc(0);
        for (const outcome of ATTEMPT_OUTCOMES) this.attempts.labels(action, outcome, tenant).inc(0);
      }
      for (const reason of SKIP_REASONS) this.skippedOccurrences.labels(action, reason).inc(0);
    }
    for (const outcome of WEBHOOK_OUTCOMES) this.webhookDeliveries.labels(outcome).inc(0);
    for (const reason of WITHHELD_REPLY_REASONS) this.withheldReplies.labels(reason).inc(0);
  }

  actionsCreated(actions: readonly { action: string; tenantId: string }[]): void {
    if (!this.enabled) return;
    // One increment per type and tenant: a batch of 1000 would otherwise cost 1000 label look-ups.
    const byLabels = new Map<string, { action: string; tenant: string; count: number }>();
    for (const { action, tenantId } of actions) {
      const key = `${action}\n${tenantId}`;
      const entry = byLabels.get(key) ?? { action, tenant: tenantId, count: 0 };
      entry.count += 1;
      byLabels.set(key, entry);
    }
    for (const { action, tenant, count } of byLabels.values()) this.created.labels(action, tenant).inc(count);
  }

  /** Occurrences of an action of type `action` that will not run, as a written change listed them. */
  occurrencesSkipped(action: string, skipped: readonly { reason: SkipReason; count: number }[]): void {
    if (this.enabled) for (const { reason, count } of skipped) this.skippedOccurrences.labels(action, reason).inc(count);
  }

  attemptEnded(action: { action: string; tenantId: string }, outcome: AttemptOutcome): void {
    if (this.enabled) this.attempts.labels(action.action, outcome, action.tenantId).inc();
  }

  /** An attempt started `lagMs` after it was due or became runnable, whichever was later (never below 0: a skewed worker clock is not an early run). */
  attemptStarted(action: string, lagMs: number): void {
    if (this.enabled) this.firingLagSeconds.labels(action).observe(Math.max(0, lagMs) / 1000);
  }

  webhookAttemptEnded(outcome: WebhookOutcome): void {
    if (this.enabled) this.webhookDeliveries.labels(outcome).inc();
  }

  replyWithheld(reason: WithheldReplyReason): void {
    if (this.enabled) this.withheldReplies.labels(reason).inc();
  }

  overdueActions(count: number): void {
    if (this.enabled) this.overdue.set(count);
  }

  readiness(ready: boolean): void {
    if (this.enabled) this.ready.set(ready ? 1 : 0);
  }

  httpRequest(method: string, route: string, status: number, seconds: number): void {
    if (this.enabled) this.httpDuration.labels(method, route, String(status)).observe(seconds);
  }

  get isEnabled(): boolean {
    return this.enabled;
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The Prometheus text exposition: Punctual's metrics and the process's. */
  exposition(): Promise<string> {
    return Registry.merge([processMetricsRegistry(), this.registry]).metrics();
  }
}
