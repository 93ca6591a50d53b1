import { Injectable } from '@nestjs/common';
import { HealthCheckResult } from '@nestjs/terminus';
import { PeriodicTask } from '@app/runtime';
import { PunctualMetrics } from '../metrics/punctual-metrics';

/** What a process checks before it says it can do its work; each app provides its own. */
export abstract class Readiness {
  /** @throws ServiceUnavailableException naming what does not answer. */
  abstract check(): Promise<HealthCheckResult>;
}

/** Often enough for an alert within a minute; two pings per interval and process. */
export const READINESS_GAUGE_INTERVAL_MS = 5_000;

/**
 * Keeps `punctual_ready` at the result of the process's readiness check, run on a timer rather
 * than per scrape, so that an alert can say which process is not ready, and why it matters less
 * how often Prometheus asks. 0 from the moment the process starts stopping.
 */
@Injectable()
export class ReadinessGauge extends PeriodicTask {
  constructor(
    private readonly readiness: Readiness,
    private readonly metrics: PunctualMetrics,
  ) {
    super({ name: 'Readiness gauge', intervalMs: READINESS_GAUGE_INTERVAL_MS, enabled: metrics.isEnabled });
  }

  onModuleDestroy(): void {
    super.onModuleDestroy();
    this.metrics.readiness(false);
  }

  protected async run(): Promise<void> {
    const ready = await this.readiness.check().then(
      () => true,
      () => false,
    );
    if (!this.stopping) this.metrics.readiness(ready);
  }
}
