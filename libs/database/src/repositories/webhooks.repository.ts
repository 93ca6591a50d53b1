import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { reencryptStaleSecrets } from './reencrypt-secrets';
import { TenantScope, ownedBy, tenantCondition } from './tenant-scope';

export type DeliveryStatus = 'PENDING' | 'DELIVERED' | 'FAILED';

export interface SubscriptionRecord {
  id: string;
  /** Its events are this tenant's alone. */
  tenantId: string;
  url: string;
  events: string[];
  actionTypes: string[] | null;
  description: string | null;
  secretCiphertext: string;
  createdAt: Date;
}

export interface DeliveryRecord {
  id: string;
  type: string;
  actionId: string | null;
  status: DeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: Date;
  deliveredAt: Date | null;
}

/** A condition on the delivery `d`: its event is not yet past retention (`$3` days), after which retention may delete it at any time. */
const WITHIN_RETENTION = `d.event_created_at >= now() - make_interval(days => $3)`;
const SUBSCRIPTION = `id, tenant_id AS "tenantId", url, events, action_types AS "actionTypes", description, secret_ciphertext AS "secretCiphertext", created_at AS "createdAt"`;
const DELIVERY = `d.id, e.type, e.action_id AS "actionId", d.status, d.attempts, d.last_status_code AS "lastStatusCode",
  d.last_error AS "lastError", d.created_at AS "createdAt", d.delivered_at AS "deliveredAt"`;

/** Webhook subscriptions and what was delivered to them, as the API reads and changes them. */
@Injectable()
export class WebhooksRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Stores a subscription unless its tenant has `max` already (null then); concurrent creates
   * cannot pass the bound together. Every event fans out to its tenant's subscriptions, so the
   * bound is what one state change can cost.
   */
  async createUnlessFull(max: number, subscription: Omit<SubscriptionRecord, 'createdAt'>): Promise<SubscriptionRecord | null> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('webhook_subscriptions:' || $1))`, [subscription.tenantId]);
      const [{ count }]: { count: number }[] = await manager.query(`SELECT count(*)::int AS count FROM webhook_subscriptions WHERE tenant_id = $1`, [
        subscription.tenantId,
      ]);
      if (count >= max) return null;
      const [row]: SubscriptionRecord[] = await manager.query(
        `INSERT INTO webhook_subscriptions (id, tenant_id, url, events, action_types, description, secret_ciphertext)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${SUBSCRIPTION}`,
        [
          subscription.id,
          subscription.tenantId,
          subscription.url,
          subscription.events,
          subscription.actionTypes,
          subscription.description,
          subscription.secretCiphertext,
        ],
      );
      return row;
    });
  }

  list(scope: TenantScope): Promise<SubscriptionRecord[]> {
    return this.dataSource.query(
      `SELECT ${SUBSCRIPTION} FROM webhook_subscriptions WHERE ${tenantCondition(scope, 'tenant_id', 1)} ORDER BY created_at, id`,
      [ownedBy(scope)],
    );
  }

  /** The subscription, if `scope` may see it; its deliveries are reached only through it. */
  async findById(id: string, scope: TenantScope): Promise<SubscriptionRecord | null> {
    const [row]: SubscriptionRecord[] = await this.dataSource.query(
      `SELECT ${SUBSCRIPTION} FROM webhook_subscriptions WHERE id = $1 AND ${tenantCondition(scope, 'tenant_id', 2)}`,
      [id, ownedBy(scope)],
    );
    return row ?? null;
  }

  /** Deletes the subscription and, by cascade, its deliveries (pending ones are never sent). */
  async delete(id: string, scope: TenantScope): Promise<boolean> {
    const [, deleted]: [unknown, number] = await this.dataSource.query(
      `DELETE FROM webhook_subscriptions WHERE id = $1 AND ${tenantCondition(scope, 'tenant_id', 2)}`,
      [id, ownedBy(scope)],
    );
    return deleted === 1;
  }

  /** Newest first, in keyset order after `after`. */
  deliveries(subscriptionId: string, limit: number, after?: { createdAt: Date; id: string }): Promise<DeliveryRecord[]> {
    return this.dataSource.query(
      `SELECT ${DELIVERY} FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id AND e.created_at = d.event_created_at
       WHERE d.subscription_id = $1 AND ($3::timestamptz IS NULL OR (d.created_at, d.id) < ($3, $4::uuid))
       ORDER BY d.created_at DESC, d.id DESC LIMIT $2`,
      [subscriptionId, limit, after?.createdAt ?? null, after?.id ?? null],
    );
  }

  /**
   * Puts a FAILED or DELIVERED delivery of the subscription back in the outbox, due now and without
   * a delivery time, for the pump to queue; null when the delivery is pending or not the
   * subscription's. The condition decides between concurrent calls: one changes the row, the
   * others find it pending. `attempts` counts on rather than starting over: a job's id names its
   * attempt and the queue keeps finished jobs for a while, so the job of an attempt number already
   * used would be dropped as a duplicate; and a stale job of an earlier attempt still claims nothing.
   * The event is share-locked first, so retention never purges it under a delivery made pending:
   * a purge of rows skips a locked event, and this waits for one under way and then finds nothing;
   * the drop of a week waits for this statement, or this for the drop (RetentionRepository,
   * PartitionsRepository). An event past `retentionDays` is as good as deleted and is never made
   * pending again: else redelivering one delivery whenever it ended would keep its week for ever.
   */
  async redeliver(subscriptionId: string, deliveryId: string, retentionDays: number): Promise<DeliveryRecord | null> {
    // For UPDATE … RETURNING, TypeORM's Postgres driver answers [returned rows, affected row count].
    const [rows]: [DeliveryRecord[], number] = await this.dataSource.query(
      `WITH event AS (
         SELECT e.id, e.created_at, e.type, e.action_id
         FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id AND e.created_at = d.event_created_at
         WHERE d.id = $2 AND d.subscription_id = $1 AND ${WITHIN_RETENTION} FOR SHARE OF e
       )
       UPDATE webhook_deliveries d SET status = 'PENDING', next_attempt_at = now(), queued_at = NULL, delivered_at = NULL,
         attempts_before_redelivery = d.attempts
       FROM event e
       WHERE e.id = d.event_id AND e.created_at = d.event_created_at AND d.id = $2 AND d.subscription_id = $1 AND d.status IN ('FAILED', 'DELIVERED')
       RETURNING ${DELIVERY}`,
      [subscriptionId, deliveryId, retentionDays],
    );
    return rows[0] ?? null;
  }

  /** Whether the subscription has this delivery, pending or of an event not yet past `retentionDays`: one it may still send. */
  async hasDelivery(subscriptionId: string, deliveryId: string, retentionDays: number): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM webhook_deliveries d WHERE d.id = $2 AND d.subscription_id = $1 AND (d.status = 'PENDING' OR ${WITHIN_RETENTION})`,
      [subscriptionId, deliveryId, retentionDays],
    );
    return rows.length > 0;
  }

  /** Stores a `webhook.test` event for this subscription alone; the outbox triggers add its delivery. */
  async addTestEvent(subscriptionId: string): Promise<DeliveryRecord> {
    return this.dataSource.transaction(async (manager) => {
      // Its time as text: a Date would drop the microseconds its delivery's partition key holds.
      const [event]: { id: string; created_at: string }[] = await manager.query(
        `INSERT INTO webhook_events (tenant_id, type, subscription_id)
         SELECT tenant_id, 'webhook.test', id FROM webhook_subscriptions WHERE id = $1 RETURNING id, created_at::text`,
        [subscriptionId],
      );
      const [delivery]: DeliveryRecord[] = await manager.query(
        `SELECT ${DELIVERY} FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id AND e.created_at = d.event_created_at WHERE d.event_id = $1 AND d.event_created_at = $2::timestamptz`,
        [event.id, event.created_at],
      );
      return delivery;
    });
  }

  /** Subscriptions whose secret `isStale` says was encrypted with an older key. */
  reencryptSecrets(isStale: (ciphertext: string) => boolean, reencrypt: (ciphertext: string) => string): Promise<number> {
    return reencryptStaleSecrets(this.dataSource, { name: 'webhook_subscriptions', id: 'id' }, isStale, reencrypt);
  }
}
