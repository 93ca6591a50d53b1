import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ActionEntity } from '../entities/action.entity';
import { postgresGroupCommit } from './postgres-group-commit';
import { hydrateJson } from './hydrate';
import { UnnestColumns } from './unnest-columns';

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
  /** The claim's fencing token: the attempt renews its lease and records its answer only while it holds. */
  claimToken: string;
  /** The attempts made before its last redelivery (0 if never redelivered): its retries count from there. */
  attemptsBeforeRedelivery: number;
  url: string;
  /** Null for an action's callback URL, signed with the secret of `apiKeyId` (the key that set the callback) instead. */
  subscriptionId: string | null;
  secretCiphertext: string | null;
  apiKeyId: string | null;
  /** The event's tenant: only its keys may sign a callback. */
  tenantId: string;
  event: {
    id: string;
    type: string;
    createdAt: Date;
    occurrence: number | null;
    attempt: number | null;
    note: string | null;
    /** Why the occurrence did not run, for an `action.occurrence_skipped` event; else null. */
    reason: string | null;
    /** For an `action.occurrence_skipped` event, the earliest skipped times (ISO, up to 100) and how many were skipped in all; else null. */
    skipped: { times: string[]; count: number } | null;
    /** The action right after the change, or null for a `webhook.test` event. */
    action: ActionEntity | null;
  };
}

interface ClaimRequest {
  id: string;
  attempts: number;
  leaseMs: number;
}

interface ResultRequest {
  id: string;
  claimToken: string;
  result: AttemptResult;
}

/** A marked delivery's columns (of the table named `d`), as a `QueueableDelivery`. */
const QUEUEABLE = `d.id, d.attempts, d.next_attempt_at AS "nextAttemptAt", coalesce(d.subscription_id::text, md5(d.url)) AS target`;

const CLAIM_COLUMNS = new UnnestColumns<ClaimRequest>([
  ['id', 'uuid', (r) => r.id],
  ['attempts', 'integer', (r) => r.attempts],
]);

const RESULT_COLUMNS = new UnnestColumns<ResultRequest>([
  ['id', 'uuid', (r) => r.id],
  ['claim_token', 'uuid', (r) => r.claimToken],
  ['status_code', 'integer', (r) => r.result.statusCode],
  ['delivered', 'boolean', (r) => r.result.kind === 'delivered'],
  ['error', 'text', (r) => (r.result.kind === 'failed' ? r.result.error : null)],
  ['retry_in_ms', 'integer', (r) => (r.result.kind === 'failed' ? r.result.retryInMs : null)],
]);

/** Whether an attempt's result was recorded and, when the delivery is to be tried again, its next attempt to queue. */
export interface RecordedAttempt {
  recorded: boolean;
  retry: QueueableDelivery | null;
}

export type AttemptResult =
  /** `statusCode` null for an email. */
  | { kind: 'delivered'; statusCode: number | null }
  /** `retryInMs` null: no attempt is left (or the target can never be reached), the delivery is FAILED. */
  | { kind: 'failed'; statusCode: number | null; error: string; retryInMs: number | null };

/**
 * The workers' side of the webhook outbox: which deliveries to queue, one attempt's claim, and
 * its result. Every change is conditional on the attempt number, so a duplicate or stale job
 * changes nothing, and on Postgres's clock. Rows are locked in id order, so batches of several
 * workers cannot deadlock.
 */
@Injectable()
export class WebhookDeliveriesRepository {
  // Concurrent attempts share their claim and their result statements, as action outcomes do.
  private readonly claims = postgresGroupCommit<ClaimRequest, ClaimedDelivery | null>((requests) => this.claimMany(requests));
  private readonly results = postgresGroupCommit<ResultRequest, RecordedAttempt>((results) => this.recordMany(results));

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Marks as queued the deliveries, waiting for their job, of these events (`event_id`: the events a
   * write just committed) or these deliveries (`id`: a test event's, a redelivered one), and returns them.
   */
  async markQueued(by: 'event_id' | 'id', ids: readonly string[]): Promise<QueueableDelivery[]> {
    const [rows]: [QueueableDelivery[], number] = await this.dataSource.query(
      `UPDATE webhook_deliveries d SET queued_at = now() WHERE ${by} = ANY($1) AND status = 'PENDING' AND queued_at IS NULL
       RETURNING ${QUEUEABLE}`,
      [ids],
    );
    return rows;
  }

  /**
   * Marks as queued up to `limit` deliveries overdue by `graceMs` and returns them: a delivery whose
   * job was never added (its process died after the commit, or Redis refused) or was lost with
   * Redis since. Rows another process is marking are skipped.
   */
  async markOverdueQueued(graceMs: number, limit: number): Promise<QueueableDelivery[]> {
    // For UPDATE … RETURNING, TypeORM's Postgres driver answers [returned rows, affected row count].
    const [rows]: [QueueableDelivery[], number] = await this.dataSource.query(
      `UPDATE webhook_deliveries d SET queued_at = now() WHERE id = ANY(ARRAY(
         SELECT id FROM webhook_deliveries WHERE status = 'PENDING' AND next_attempt_at < now() - $1 * interval '1 millisecond'
           AND (queued_at IS NULL OR queued_at < now() - $1 * interval '1 millisecond') AND (claimed_until IS NULL OR claimed_until < now())
         ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED))
       RETURNING ${QUEUEABLE}`,
      [graceMs, limit],
    );
    return rows;
  }

  /** Takes the mark off deliveries whose jobs could not be added, so the next run tries again at once. */
  async unmarkQueued(ids: readonly string[]): Promise<void> {
    await this.dataSource.query(`UPDATE webhook_deliveries SET queued_at = NULL WHERE id = ANY($1) AND status = 'PENDING'`, [ids]);
  }

  /**
   * Claims attempt `attempts + 1` under a lease of `leaseMs` and a fresh fencing token, if the
   * delivery still waits for exactly it, is due and is not claimed by a live attempt; `{ dueInMs }`
   * when it waits for it but later; null when the job is stale or the delivery gone.
   */
  async claim(id: string, attempts: number, leaseMs: number): Promise<ClaimedDelivery | { dueInMs: number } | null> {
    const claimed = await this.claims.submit({ id, attempts, leaseMs });
    return claimed ?? this.dueLater(id, attempts);
  }

  /** Extends a running attempt's lease; false when the claim is no longer `claimToken`'s (it lapsed and another attempt took it). */
  async renew(id: string, claimToken: string, leaseMs: number): Promise<boolean> {
    const [, renewed]: [unknown, number] = await this.dataSource.query(
      `UPDATE webhook_deliveries SET claimed_until = now() + $3 * interval '1 millisecond' WHERE id = $1 AND claim_token = $2 AND status = 'PENDING'`,
      [id, claimToken, leaseMs],
    );
    return renewed === 1;
  }

  /**
   * Records the answer of the attempt that holds `claimToken`, marking a retry queued: the caller
   * queues it once this answered. Not recorded when the claim is no longer that attempt's (it lapsed
   * and another attempt took it, or recorded it first).
   */
  record(id: string, claimToken: string, result: AttemptResult): Promise<RecordedAttempt> {
    return this.results.submit({ id, claimToken, result });
  }

  private async claimMany(requests: ClaimRequest[]): Promise<(ClaimedDelivery | null)[]> {
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      `WITH requested AS (
         SELECT * FROM ${CLAIM_COLUMNS.rows('r')}
       ), claimable AS (
         SELECT d.id FROM webhook_deliveries d JOIN requested r ON d.id = r.id AND d.attempts = r.attempts
         WHERE d.status = 'PENDING' AND d.next_attempt_at <= now() AND (d.claimed_until IS NULL OR d.claimed_until < now())
         ORDER BY d.id FOR UPDATE OF d
       ), claimed AS (
         UPDATE webhook_deliveries d SET claimed_until = now() + $3 * interval '1 millisecond', claim_token = gen_random_uuid()
         FROM (SELECT DISTINCT id FROM claimable) c WHERE d.id = c.id
         RETURNING d.id, d.claim_token, d.attempts, d.attempts_before_redelivery, d.url, d.subscription_id, d.event_id, d.event_created_at
       )
       SELECT c.id, c.claim_token, c.attempts, c.attempts_before_redelivery, c.url, c.subscription_id, s.secret_ciphertext, e.api_key_id, e.tenant_id, e.id AS event_id, e.type,
         e.created_at, e.occurrence, e.attempt, e.note, e.reason, e.skipped, e.skipped_count, e.action
       FROM claimed c JOIN webhook_events e ON e.id = c.event_id AND e.created_at = c.event_created_at LEFT JOIN webhook_subscriptions s ON s.id = c.subscription_id`,
      [...CLAIM_COLUMNS.values(requests), requests[0].leaseMs],
    );
    const byId = new Map(rows.map((row) => [row.id as string, row]));
    return requests.map((request) => {
      const row = byId.get(request.id);
      // A job queued twice in one batch claims once.
      byId.delete(request.id);
      return row ? this.claimedDelivery(row) : null;
    });
  }

  private async recordMany(results: ResultRequest[]): Promise<RecordedAttempt[]> {
    const [rows]: [(QueueableDelivery & { status: string })[], number] = await this.dataSource.query(
      `WITH result AS (
         SELECT * FROM ${RESULT_COLUMNS.rows('r')}
       ), locked AS (
         SELECT r.* FROM webhook_deliveries d JOIN result r ON d.id = r.id AND d.claim_token = r.claim_token
         WHERE d.status = 'PENDING' ORDER BY d.id FOR UPDATE OF d
       )
       UPDATE webhook_deliveries d SET attempts = d.attempts + 1, last_status_code = r.status_code, claimed_until = NULL, claim_token = NULL,
         status = CASE WHEN r.delivered THEN 'DELIVERED' WHEN r.retry_in_ms IS NULL THEN 'FAILED' ELSE 'PENDING' END,
         last_error = r.error, delivered_at = CASE WHEN r.delivered THEN now() END,
         next_attempt_at = CASE WHEN r.retry_in_ms IS NULL THEN d.next_attempt_at ELSE now() + r.retry_in_ms * interval '1 millisecond' END,
         queued_at = CASE WHEN NOT r.delivered AND r.retry_in_ms IS NOT NULL THEN now() END
       FROM (SELECT DISTINCT ON (id) * FROM locked ORDER BY id) r WHERE d.id = r.id
       RETURNING d.status, ${QUEUEABLE}`,
      RESULT_COLUMNS.values(results),
    );
    const recorded = new Map(rows.map((row) => [row.id, row]));
    return results.map((result): RecordedAttempt => {
      const row = recorded.get(result.id);
      // A job queued twice in one batch is recorded once.
      recorded.delete(result.id);
      if (!row) return { recorded: false, retry: null };
      const { status, ...retry } = row;
      return { recorded: true, retry: status === 'PENDING' ? retry : null };
    });
  }

  private claimedDelivery(row: Record<string, unknown>): ClaimedDelivery {
    return {
      id: row.id as string,
      claimToken: row.claim_token as string,
      attempts: row.attempts as number,
      attemptsBeforeRedelivery: row.attempts_before_redelivery as number,
      url: row.url as string,
      subscriptionId: row.subscription_id as string | null,
      secretCiphertext: row.secret_ciphertext as string | null,
      apiKeyId: row.api_key_id as string | null,
      tenantId: row.tenant_id as string,
      event: {
        id: row.event_id as string,
        type: row.type as string,
        createdAt: row.created_at as Date,
        occurrence: row.occurrence as number | null,
        attempt: row.attempt as number | null,
        note: row.note as string | null,
        reason: row.reason as string | null,
        skipped: row.skipped ? { times: row.skipped as string[], count: row.skipped_count as number } : null,
        action: row.action ? hydrateJson<ActionEntity>(this.dataSource.getMetadata(ActionEntity), row.action as Record<string, unknown>) : null,
      },
    };
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
