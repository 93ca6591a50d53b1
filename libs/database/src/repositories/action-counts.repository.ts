import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ALL_STATUSES, ActionStatus } from '@app/domain';
import { TransactionLock } from '../advisory-lock';
import { ActionStats } from './action-query.types';
import { TenantScope, ownedBy, tenantCondition } from './tenant-scope';

/** Advisory-lock key: one compaction at a time (concurrent ones would be correct, only wasted). */
const COMPACTION_LOCK = 0x636f756e; // "coun"

/**
 * A read that finds more delta rows than this folds them right after answering, so that stats
 * stay fast even where no worker compacts (an API-only deployment, a worker outage).
 */
const COMPACT_ON_READ_ROWS = 5_000;

/**
 * Counts of actions by type and status without counting the table. Triggers on `actions`
 * append deltas to `action_counts` (see the migration `RequestHashAndStatusCounts`); a read sums
 * them, and `compact` folds them into one row per (action, status) so the sum stays short.
 */
@Injectable()
export class ActionCountsRepository {
  private readonly logger = new Logger(ActionCountsRepository.name);
  private compacting: Promise<unknown> | null = null;
  /** The compaction lock: the worker's compaction task leads through it, and a compaction after a large read takes it too. */
  readonly lock: TransactionLock;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.lock = new TransactionLock(dataSource, COMPACTION_LOCK);
  }

  /** The counts of `scope`'s actions. */
  async stats(scope: TenantScope): Promise<ActionStats> {
    const rows: { action: string; status: ActionStatus; count: string; deltas: number }[] = await this.dataSource.query(
      `SELECT action, status, sum(delta)::bigint AS count, count(*)::int AS deltas
       FROM action_counts WHERE ${tenantCondition(scope, 'tenant_id', 1)} GROUP BY action, status ORDER BY action, status`,
      [ownedBy(scope)],
    );
    const byStatus = Object.fromEntries(ALL_STATUSES.map((s) => [s, 0])) as Record<ActionStatus, number>;
    const byAction: ActionStats['byAction'] = {};
    let total = 0;
    let deltas = 0;
    for (const row of rows) {
      deltas += row.deltas;
      const count = Number(row.count);
      if (count === 0) continue;
      total += count;
      byStatus[row.status] += count;
      byAction[row.action] = { ...byAction[row.action], [row.status]: count };
    }
    if (deltas > COMPACT_ON_READ_ROWS) this.compactInBackground();
    return { total, byStatus, byAction };
  }

  /**
   * Folds every committed delta into one row per (action, status), in one statement: deltas
   * appended meanwhile are not in its snapshot and stay as they are, so no change is lost or
   * counted twice. Runs on `manager`, a transaction holding the compaction lock; without one, takes
   * the lock itself. Returns the number of delta rows folded (0 when another instance is folding).
   */
  async compact(manager?: EntityManager): Promise<number> {
    if (!manager) return (await this.lock.whileHeld((held) => this.compact(held))) ?? 0;
    const [{ folded }]: { folded: number }[] = await manager.query(
      `WITH folded AS (DELETE FROM action_counts RETURNING tenant_id, action, status, delta),
            totals AS (
              INSERT INTO action_counts (tenant_id, action, status, delta)
              SELECT tenant_id, action, status, sum(delta) FROM folded GROUP BY tenant_id, action, status HAVING sum(delta) <> 0
            )
       SELECT count(*)::int AS folded FROM folded`,
    );
    return folded;
  }

  private compactInBackground(): void {
    this.compacting ??= this.compact()
      .catch((error: Error) => this.logger.warn(`Compacting action counts failed: ${error.message}`))
      .finally(() => (this.compacting = null));
  }
}
