import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ActionEntity } from '../entities/action.entity';
import { hydrateJson } from './hydrate';

/** A delivery to put on the queue, for its next attempt. */
export interface QueueableDelivery {
  id: string;
  /** Attempts made so far; the job of the next one carries it, so each attempt is queued once. */
  attempts: number;
  nextAttemptAt: Date;
  /** Who receives it: the subscription's id, or a digest of an action's callback URL (never the URL itself). */
  target: string;
}

/** A delivery claimed for one attempt, with the event it carries and what it is signed with. */
export interface ClaimedDelivery {
  id: string;
  attempts: number;
  url: string;
  /** Null for an action's callback URL, signed with `apiKeyId`'s secret instead. */
  subscriptionId: string | null;
  secretCiphertext: string | null;
  apiKeyId: string | null;
  event: {
    id: string;
    type: string;
    createdAt: Date;
    occurrence: number | null;
    attempt: number | null;
    note: string | null;
    /** The action right after the change, or null for a `webhook.test` event. */
    action: ActionEntity | null;
  };
}

export type AttemptResult =
  /** `statusCode` null for an email. */
  | { kind: 'delivered'; statusCode: number | null }
  /** `retryInMs` null: no attempt is left (or the target can never be reached), the delivery is FAILED. */
  | { kind: 'failed'; statusCode: number | null; error: string; retryInMs: number | null };

/**
 * The workers' side of the webhook outbox: which deliveries to queue, one attempt's claim, and
 * its result. Every change is conditional on the attempt number, so a duplicate or stale job
 * changes nothing, and on Postgres's clock.
 */
@Injectable()
export class WebhookDeliveriesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Marks up to `limit` deliveries as queued and returns them: new ones and retries, and ones
   * overdue by `graceMs` although queued (their job was lost with Redis). Rows another process
   * is marking are skipped.
   */
  async markQueueable(graceMs: number, limit: number): Promise<QueueableDelivery[]> {
    // For UPDATE … RETURNING, TypeORM's Postgres driver answers [returned rows, affected row count].
    const [rows]: [QueueableDelivery[], number] = await this.dataSource.query(
      `UPDATE webhook_deliveries SET queued_at = now() WHERE id = ANY(
         ARRAY(SELECT id FROM webhook_deliveries WHERE status = 'PENDING' AND queued_at IS NULL ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED)
         || ARRAY(SELECT id FROM webhook_deliveries WHERE status = 'PENDING' AND next_attempt_at < now() - $1 * interval '1 millisecond'
              AND queued_at < now() - $1 * interval '1 millisecond' AND (claimed_until IS NULL OR claimed_until < now())
            ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED))
       RETURNING id, attempts, next_attempt_at AS "nextAttemptAt", coalesce(subscription_id::text, md5(url)) AS target`,
      [graceMs, limit],
    );
    return rows;
  }

  /** Takes the mark off deliveries whose jobs could not be added, so the next run tries again at once. */
  async unmarkQueued(ids: readonly string[]): Promise<void> {
    await this.dataSource.query(`UPDATE webhook_deliveries SET queued_at = NULL WHERE id = ANY($1) AND status = 'PENDING'`, [ids]);
  }

  /**
   * Claims attempt `attempts + 1` for `holdMs` if the delivery still waits for exactly it and is
   * due; `{ dueInMs }` when it waits for it but later; null when the job is stale or the delivery gone.
   */
  async claim(id: string, attempts: number, holdMs: number): Promise<ClaimedDelivery | { dueInMs: number } | null> {
    const [row]: Record<string, unknown>[] = await this.dataSource.query(
      `WITH claimed AS (
         UPDATE webhook_deliveries SET claimed_until = now() + $3 * interval '1 millisecond'
         WHERE id = $1 AND attempts = $2 AND status = 'PENDING' AND next_attempt_at <= now()
           AND (claimed_until IS NULL OR claimed_until < now())
         RETURNING id, attempts, url, subscription_id, event_id
       )
       SELECT c.id, c.attempts, c.url, c.subscription_id, s.secret_ciphertext, e.api_key_id, e.id AS event_id, e.type,
         e.created_at, e.occurrence, e.attempt, e.note, e.action
       FROM claimed c JOIN webhook_events e ON e.id = c.event_id LEFT JOIN webhook_subscriptions s ON s.id = c.subscription_id`,
      [id, attempts, holdMs],
    );
    if (!row) return this.dueLater(id, attempts);
    return {
      id: row.id as string,
      attempts: row.attempts as number,
      url: row.url as string,
      subscriptionId: row.subscription_id as string | null,
      secretCiphertext: row.secret_ciphertext as string | null,
      apiKeyId: row.api_key_id as string | null,
      event: {
        id: row.event_id as string,
        type: row.type as string,
        createdAt: row.created_at as Date,
        occurrence: row.occurrence as number | null,
        attempt: row.attempt as number | null,
        note: row.note as string | null,
        action: row.action ? hydrateJson<ActionEntity>(this.dataSource.getMetadata(ActionEntity), row.action as Record<string, unknown>) : null,
      },
    };
  }

  /** Records attempt `attempts + 1`; false when that attempt was already recorded (a duplicate job). */
  async record(id: string, attempts: number, result: AttemptResult): Promise<boolean> {
    const [, changed]: [unknown, number] = await this.dataSource.query(
      `UPDATE webhook_deliveries SET attempts = attempts + 1, last_status_code = $3, claimed_until = NULL,
         status = CASE WHEN $4 THEN 'DELIVERED' WHEN $6::integer IS NULL THEN 'FAILED' ELSE 'PENDING' END,
         last_error = $5, delivered_at = CASE WHEN $4 THEN now() END,
         next_attempt_at = CASE WHEN $6::integer IS NULL THEN next_attempt_at ELSE now() + $6 * interval '1 millisecond' END,
         queued_at = NULL
       WHERE id = $1 AND attempts = $2 AND status = 'PENDING'`,
      [
        id,
        attempts,
        result.statusCode,
        result.kind === 'delivered',
        result.kind === 'failed' ? result.error : null,
        result.kind === 'failed' ? result.retryInMs : null,
      ],
    );
    return changed === 1;
  }

  private async dueLater(id: string, attempts: number): Promise<{ dueInMs: number } | null> {
    const [row]: { due_in_ms: string }[] = await this.dataSource.query(
      `SELECT ceil(extract(epoch FROM greatest(next_attempt_at, coalesce(claimed_until, next_attempt_at)) - now()) * 1000) AS due_in_ms
       FROM webhook_deliveries WHERE id = $1 AND attempts = $2 AND status = 'PENDING'`,
      [id, attempts],
    );
    return row ? { dueInMs: Math.max(1, Number(row.due_in_ms)) } : null;
  }
}
