import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/** Weeks made before they start, so that rows land in a week of their own and not in the DEFAULT partition. */
export const WEEKS_AHEAD = 2;

/**
 * How long a change of partitions waits for the statements in flight on its table. Dropping or
 * attaching a partition locks the DEFAULT partition (and a drop its table) exclusively, and the
 * statements after it queue behind a waiting change: on a busy table the change gives up and is
 * tried again at the next run instead.
 */
const LOCK_TIMEOUT = '500ms';
/** Postgres's SQLSTATE for a lock not taken within `lock_timeout`. */
const LOCK_NOT_AVAILABLE = '55P03';

/** What one upkeep did: the weeks made, the partitions dropped, and those past retention it kept, with why. */
export interface PartitionUpkeep {
  created: number;
  dropped: string[];
  kept: { partition: string; reason: 'pending deliveries' | 'busy' }[];
}

interface ExpiredPartition {
  parent: 'action_history' | 'webhook_events' | 'webhook_deliveries';
  name: string;
  from: Date;
}

/**
 * The weekly partitions of the history and the webhook outbox (migration 1763870001700): weeks are
 * made ahead by `punctual_create_week_partitions`, and a week is dropped whole once it ended
 * RETENTION_DAYS ago, never a row newer than that, but for the creation entries of its history,
 * which move to the DEFAULT partition and go with their actions. An outbox week goes only once none of its
 * deliveries is pending, its events with their deliveries. Every step is idempotent and short, so a
 * process that dies half-way leaves nothing that the next run does not finish.
 */
@Injectable()
export class PartitionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async upkeep(retentionDays: number): Promise<PartitionUpkeep> {
    const created = await this.createAhead(WEEKS_AHEAD);
    const expired = await this.expired(retentionDays);
    const result: PartitionUpkeep = { created, dropped: [], kept: [] };
    for (const partition of expired.filter((p) => p.parent === 'action_history')) {
      const dropped = await this.withLockTimeout(async (manager) => {
        // An action's creation entry stays as long as the action: once the week is detached, the
        // DEFAULT partition covers its range, and the creation entries copied back land there.
        await manager.query(`ALTER TABLE action_history DETACH PARTITION ${partition.name}`);
        await manager.query(`INSERT INTO action_history SELECT * FROM ${partition.name} WHERE from_status IS NULL`);
        await manager.query(`DROP TABLE ${partition.name}`);
        return true;
      });
      this.tally(result, [partition.name], dropped ? 'dropped' : 'busy');
    }
    for (const events of expired.filter((p) => p.parent === 'webhook_events')) {
      // A week's deliveries have the same bounds as its events: they are made together.
      const deliveries = expired.find((p) => p.parent === 'webhook_deliveries' && p.from.getTime() === events.from.getTime());
      const names = [...(deliveries ? [deliveries.name] : []), events.name];
      const outcome = await this.withLockTimeout(async (manager) => {
        // Locked before the look, so that no delivery of the week is redelivered between the look and the drop.
        await manager.query(`LOCK TABLE ONLY webhook_deliveries, ONLY webhook_events IN ACCESS EXCLUSIVE MODE`);
        if (deliveries) {
          const pending: unknown[] = await manager.query(`SELECT 1 FROM ${deliveries.name} WHERE status = 'PENDING' LIMIT 1`);
          if (pending.length > 0) return 'pending deliveries' as const;
        }
        await manager.query(`DROP TABLE ${names.join(', ')}`);
        return 'dropped' as const;
      });
      this.tally(result, names, outcome === false ? 'busy' : outcome);
    }
    return result;
  }

  /** Makes this week (UTC) and the `weeksAhead` after it where missing; returns the partitions made (0 when the tables were busy). */
  async createAhead(weeksAhead: number): Promise<number> {
    const created = await this.withLockTimeout(async (manager) => {
      const [row]: { created: number }[] = await manager.query(
        `SELECT coalesce(sum(punctual_create_week_partitions(((now() AT TIME ZONE 'UTC') + week * interval '7 days')::date)), 0)::int AS created
         FROM generate_series(0, $1::int) week`,
        [weeksAhead],
      );
      return row.created;
    });
    return created === false ? 0 : created;
  }

  /** The range partitions (not the DEFAULT ones) whose upper bound is `retentionDays` or more ago, oldest first. */
  private expired(retentionDays: number): Promise<ExpiredPartition[]> {
    return this.dataSource.query(
      `SELECT parent.relname AS parent, format('%I', c.relname) AS name, bounds[1]::timestamptz AS "from"
       FROM pg_inherits i JOIN pg_class parent ON parent.oid = i.inhparent JOIN pg_class c ON c.oid = i.inhrelid
         CROSS JOIN LATERAL regexp_match(pg_get_expr(c.relpartbound, c.oid), $$FROM \\('([^']+)'\\) TO \\('([^']+)'\\)$$) bounds
       WHERE i.inhparent IN ('action_history'::regclass, 'webhook_events'::regclass, 'webhook_deliveries'::regclass)
         AND bounds[2]::timestamptz <= now() - make_interval(days => $1)
       ORDER BY bounds[1]::timestamptz, c.relname`,
      [retentionDays],
    );
  }

  /** Runs `change` in a transaction that waits at most LOCK_TIMEOUT for each lock; false when it gave up waiting. */
  private async withLockTimeout<T>(change: (manager: EntityManager) => Promise<T>): Promise<T | false> {
    try {
      return await this.dataSource.transaction(async (manager) => {
        await manager.query(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`);
        return change(manager);
      });
    } catch (error) {
      if ((error as { code?: string }).code === LOCK_NOT_AVAILABLE) return false;
      throw error;
    }
  }

  private tally(result: PartitionUpkeep, names: string[], outcome: 'dropped' | PartitionUpkeep['kept'][number]['reason']): void {
    if (outcome === 'dropped') result.dropped.push(...names);
    else result.kept.push(...names.map((partition) => ({ partition, reason: outcome })));
  }
}
