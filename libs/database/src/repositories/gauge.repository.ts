import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { PunctualConfig } from '@app/config';
import { SessionLock } from '../advisory-lock';

/** Session-level advisory-lock key of the one process that computes gauges ("pung"). */
const GAUGE_LOCK = 0x70756e67;

/**
 * Gauges that need a query, computed by one process among all: the one whose own Postgres session
 * holds the gauge lock, a session-level advisory lock (see SessionLock).
 */
@Injectable()
export class GaugeRepository implements OnApplicationShutdown {
  private readonly lock: SessionLock;

  constructor(config: PunctualConfig) {
    this.lock = new SessionLock(config.database.url, GAUGE_LOCK);
  }

  /** PENDING actions due more than `graceMs` ago; null when another process computes the gauges. */
  overdueWhileLeader(graceMs: number): Promise<number | null> {
    return this.lock.whileHeld(async (client) => {
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM actions WHERE status = 'PENDING' AND next_attempt_at < now() - $1 * interval '1 millisecond'`,
        [graceMs],
      );
      return rows[0].n;
    });
  }

  // After the loops stop (they stop before application shutdown).
  onApplicationShutdown(): Promise<void> {
    return this.lock.release();
  }
}
