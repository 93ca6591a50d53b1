import { Injectable } from '@nestjs/common';
import { Client } from 'pg';
import { PunctualConfig } from '@app/config';
import { overdueBefore } from './action-predicates';
import { SessionLock } from '../advisory-lock';

/** Session-level advisory-lock key of the one process that computes gauges ("pung"). */
const GAUGE_LOCK = 0x70756e67;

/**
 * Gauges that need a query, computed by one process among all: the one whose own Postgres session
 * holds `lock`, a session-level advisory lock (see SessionLock). Its holder lets it go at shutdown.
 */
@Injectable()
export class GaugeRepository {
  readonly lock: SessionLock;

  constructor(config: PunctualConfig) {
    this.lock = new SessionLock(config.database.url, GAUGE_LOCK);
  }

  /** PENDING actions due more than `graceMs` ago and not held by a pause, counted on the session that holds the lock. */
  async overdue(session: Client, graceMs: number): Promise<number> {
    const { rows } = await session.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM actions WHERE ${overdueBefore(`now() - $1 * interval '1 millisecond'`)}`,
      [graceMs],
    );
    return rows[0].n;
  }
}
