import { Injectable } from '@nestjs/common';
import { Client } from 'pg';
import { PunctualConfig } from '@app/config';
import { GaugeRepository } from '@app/database';
import { LeaderTask } from '@app/runtime';
import { PunctualMetrics } from '@app/observability';

/** Often enough for a scrape every 15 s to see a fresh value; one indexed count per interval for the whole system. */
export const OVERDUE_GAUGE_INTERVAL_MS = 5_000;

/**
 * Sets `punctual_overdue_actions` on a timer, never per scrape. Only the worker holding the gauge
 * lock counts; every other process reports 0, so `max` across processes is the true value.
 */
@Injectable()
export class OverdueGaugeLoop extends LeaderTask<Client> {
  constructor(
    private readonly gauges: GaugeRepository,
    private readonly metrics: PunctualMetrics,
    private readonly config: PunctualConfig,
  ) {
    super({ name: 'Overdue gauge', intervalMs: OVERDUE_GAUGE_INTERVAL_MS, enabled: metrics.isEnabled }, gauges.lock);
  }

  protected async lead(session: Client): Promise<void> {
    this.metrics.overdueActions(await this.gauges.overdue(session, this.config.scheduling.overdueGraceMs));
  }

  /** Also after a failure: another worker may take the lock over now, and a stale count here would win the max. */
  protected follow(): void {
    this.metrics.overdueActions(0);
  }
}
