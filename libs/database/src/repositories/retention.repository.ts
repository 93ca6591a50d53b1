import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PunctualConfig } from '@app/config';
import { SessionLock } from '../advisory-lock';

/** Session-level advisory-lock key of the one process that purges ("rete"). */
const RETENTION_LOCK = 0x72657465;

/** A condition on the webhook event `e`: none of its deliveries is pending. */
const NO_PENDING_DELIVERY = `NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.event_created_at = e.created_at AND d.status = 'PENDING')`;

/**
 * Deletes, row by row, what has outlived its retention outside the weekly partitions (which
 * PartitionsRepository drops whole), one short statement per batch on the pool so no statement
 * holds long locks. The retention task purges on the one process whose own Postgres
 * session holds `lock` (see SessionLock); concurrent purges would be correct, only wasted.
 */
@Injectable()
export class RetentionRepository {
  readonly lock: SessionLock;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    config: PunctualConfig,
  ) {
    this.lock = new SessionLock(config.database.url, RETENTION_LOCK);
  }

  /** One batch of finished actions (and, by cascade, their history and keys) finished before `retentionDays` ago. */
  async purgeFinishedActions(retentionDays: number, batchSize: number): Promise<number> {
    return this.deleteBatch(
      `DELETE FROM actions WHERE id IN (
         SELECT id FROM actions WHERE finished_at < now() - make_interval(days => $1)
         ORDER BY finished_at LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [retentionDays, batchSize],
    );
  }

  /**
   * One batch of history entries older than `retentionDays` in the DEFAULT partition: entries
   * written while their week had no partition. Every week with one is dropped whole instead
   * (PartitionsRepository). Creation entries stay: an action's history starts with its creation
   * for as long as the action is kept, and they go with it.
   */
  async purgeUnpartitionedHistory(retentionDays: number, batchSize: number): Promise<number> {
    return this.deleteBatch(
      `DELETE FROM action_history_default WHERE ctid = ANY(ARRAY(
         SELECT ctid FROM action_history_default WHERE at < now() - make_interval(days => $1) AND from_status IS NOT NULL
         ORDER BY at LIMIT $2 FOR UPDATE SKIP LOCKED))`,
      [retentionDays, batchSize],
    );
  }

  /**
   * One batch of webhook events older than `retentionDays` in the DEFAULT partition with no
   * delivery still pending, with their deliveries: deliveries are kept as long as finished actions.
   * Every week with a partition is dropped whole instead (PartitionsRepository).
   *
   * The events are locked before their deliveries are looked at again, in a statement of its own:
   * a redelivery share-locks its event before it makes the delivery pending (WebhooksRepository),
   * so an event is either skipped here while a redelivery holds it, or locked here first, and then
   * the redelivery waits and finds it gone; one that committed before the lock is seen pending.
   */
  async purgeUnpartitionedWebhookEvents(retentionDays: number, batchSize: number): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const locked: { id: string }[] = await manager.query(
        `SELECT e.id FROM webhook_events_default e WHERE e.created_at < now() - make_interval(days => $1) AND ${NO_PENDING_DELIVERY}
         ORDER BY e.created_at LIMIT $2 FOR UPDATE OF e SKIP LOCKED`,
        [retentionDays, batchSize],
      );
      if (locked.length === 0) return 0;
      const [{ count }]: { count: number }[] = await manager.query(
        `WITH gone AS (
           DELETE FROM webhook_events_default e WHERE e.id = ANY($1::uuid[]) AND ${NO_PENDING_DELIVERY}
           RETURNING id, created_at
         ), deliveries AS (
           DELETE FROM webhook_deliveries d USING gone WHERE d.event_id = gone.id AND d.event_created_at = gone.created_at
         )
         SELECT count(*)::int AS count FROM gone`,
        [locked.map((event) => event.id)],
      );
      return count;
    });
  }

  /** One batch of idempotency keys past their 24 h. */
  async purgeExpiredIdempotencyKeys(batchSize: number): Promise<number> {
    return this.deleteBatch(
      `DELETE FROM idempotency_keys WHERE (api_key_id, key) IN (
         SELECT api_key_id, key FROM idempotency_keys WHERE created_at < now() - interval '24 hours'
         LIMIT $1 FOR UPDATE SKIP LOCKED)`,
      [batchSize],
    );
  }

  /**
   * One batch of replay-protection nonces past their expiry, oldest first on the expiry index. Every
   * signed request adds a row, so the rows are found by their physical address rather than joined
   * back on the key, which would read the whole table for each batch.
   */
  async purgeExpiredNonces(batchSize: number): Promise<number> {
    return this.deleteBatch(
      `DELETE FROM accepted_nonces WHERE ctid = ANY(ARRAY(
         SELECT ctid FROM accepted_nonces WHERE expires_at < now() ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED))`,
      [batchSize],
    );
  }

  /** Runs one DELETE; returns the rows deleted. */
  private async deleteBatch(sql: string, params: unknown[]): Promise<number> {
    // For UPDATE and DELETE, TypeORM's Postgres driver answers [returned rows, affected row count].
    const [, count]: [unknown[], number] = await this.dataSource.query(sql, params);
    return count;
  }
}
