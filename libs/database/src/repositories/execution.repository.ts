import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ActionStatus } from '@app/domain';
import { ActionEntity } from '../entities/action.entity';
import { GroupCommit } from './group-commit';
import { hydrate } from './hydrate';
import { preparedQuery } from './prepared-query';
import { UnnestColumns } from './unnest-columns';

/** What a job found when it tried to claim its action. */
export type ClaimResult =
  /** The attempt is ours until `claimedUntil` (renew it while running); `takenOver`: its previous worker died mid-run. */
  | { kind: 'claimed'; action: ActionEntity; takenOver: boolean }
  /**
   * Not yet, on Postgres's clock: the action waits for this very job but is due later, or another
   * attempt holds a live claim on it. Run the job again in `dueInMs`.
   */
  | { kind: 'not-due'; dueInMs: number }
  /** Nothing to do: the job is stale, the action is gone, finished or running elsewhere. */
  | { kind: 'none' };

interface ClaimRequest {
  id: string;
  revision: number;
  token: string;
}

const CLAIM_COLUMNS = new UnnestColumns<ClaimRequest>([
  ['id', 'uuid', (r) => r.id],
  ['revision', 'integer', (r) => r.revision],
  ['token', 'uuid', (r) => r.token],
]);

/**
 * Claims a batch of jobs' actions. Every read of `actions` is driven by the requested ids through
 * the primary key (`LATERAL`, then the locked rows' `ctid`s): on a table a burst has just filled,
 * whose statistics still say it is empty, the planner would otherwise read every due row through
 * the partial due-time index and join them with the batch, a cost growing with the table for each
 * batch. A prepared statement keeps its plan, so the plan must be right whatever the statistics
 * (`test/claim-plan.e2e-spec.ts` checks it).
 */
export const CLAIM_SQL = `WITH requested AS (
    SELECT * FROM ${CLAIM_COLUMNS.rows('r')} ORDER BY id
  ), claimable AS (
    -- Rows are locked in id order (the order of requested), so concurrent batches cannot deadlock.
    SELECT a.ctid AS row_id, a.id, a.status AS previous_status, r.token FROM requested r CROSS JOIN LATERAL (
      SELECT a.ctid, a.id, a.status FROM actions a
      WHERE a.id = r.id AND a.revision = r.revision
        AND ((a.status = 'PENDING' AND a.next_attempt_at <= now()) OR (a.status = 'IN_PROGRESS' AND a.claimed_until < now()))
      FOR UPDATE
    ) a
  ), claimed AS (
    UPDATE actions a SET status = 'IN_PROGRESS', claim_token = c.token,
      claimed_until = now() + $4 * interval '1 millisecond', updated_at = clock_timestamp()
    FROM (SELECT DISTINCT ON (id) row_id, id, previous_status, token FROM claimable ORDER BY id) c
    WHERE a.ctid = ANY(ARRAY(SELECT row_id FROM claimable)) AND a.ctid = c.row_id
    RETURNING a.*, c.previous_status
  ), history AS (
    -- A fresh claim writes what the lifecycle's 'claimed' event decides (attempt retry_count + 1); a takeover's entry is the lifecycle's 'interrupted', written by the caller.
    -- due_at: when this attempt was due, so the history tells each attempt's firing lag.
    INSERT INTO action_history (action_id, occurrence, from_status, to_status, attempt, note, at, due_at)
    SELECT id, occurrence, 'PENDING', 'IN_PROGRESS', retry_count + 1, NULL, clock_timestamp(), next_attempt_at FROM claimed WHERE previous_status = 'PENDING'
  )
  SELECT c.*, NULL::bigint AS due_in_ms FROM claimed c
  UNION ALL
  -- Not yet: due later, or running under a live claim (a re-delivered job waits for the lease to lapse).
  SELECT a.*, NULL::varchar, ceil(extract(epoch FROM
      CASE a.status WHEN 'PENDING' THEN a.next_attempt_at ELSE a.claimed_until END - now()) * 1000)::bigint
  FROM requested r CROSS JOIN LATERAL (
    SELECT * FROM actions a
    WHERE a.id = r.id AND a.revision = r.revision
      AND ((a.status = 'PENDING' AND a.next_attempt_at > now()) OR (a.status = 'IN_PROGRESS' AND a.claimed_until >= now()))
    OFFSET 0 -- kept a subquery: flattened into a join, it would be planned like the one above is not
  ) a`;

/**
 * The worker's claims: a claim is a lease on Postgres's clock under a fresh fencing token, renewed
 * while the attempt runs and taken over only once it lapsed; the attempt's outcome is written by
 * `LifecycleStore` only while that token holds. Concurrent claims share statements (GroupCommit);
 * rows are locked in id order, so batches running side by side on several workers cannot deadlock.
 */
@Injectable()
export class ExecutionRepository {
  private readonly claims = new GroupCommit<ClaimRequest & { leaseMs: number }, ClaimResult>((requests) => this.claimMany(requests));

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * PENDING and due → IN_PROGRESS for exactly this revision, under a new lease of `leaseMs`. Also
   * takes over an IN_PROGRESS claim whose lease lapsed (its worker died; the caller records the
   * interruption). Time is Postgres's, never the worker's.
   */
  claim(id: string, revision: number, leaseMs: number): Promise<ClaimResult> {
    return this.claims.submit({ id, revision, token: randomUUID(), leaseMs });
  }

  /** Extends a running attempt's lease; false when the claim is no longer this token's (it was taken over). */
  async renew(action: ActionEntity, leaseMs: number): Promise<boolean> {
    const [, renewed]: [unknown, number] = await this.dataSource.query(
      `UPDATE actions SET claimed_until = now() + $3 * interval '1 millisecond'
       WHERE id = $1 AND claim_token = $2 AND status = 'IN_PROGRESS'`,
      [action.id, action.claimToken, leaseMs],
    );
    return renewed === 1;
  }

  /** The action as it is now if `token` still holds its claim, else null (a takeover fenced it off). */
  async claimed(id: string, token: string): Promise<ActionEntity | null> {
    return this.dataSource.getRepository(ActionEntity).findOneBy({ id, claimToken: token, status: ActionStatus.InProgress });
  }

  private async claimMany(requests: (ClaimRequest & { leaseMs: number })[]): Promise<ClaimResult[]> {
    const rows = await preparedQuery(this.dataSource, 'punctual_claim', CLAIM_SQL, [...CLAIM_COLUMNS.values(requests), requests[0].leaseMs]);
    const metadata = this.dataSource.getMetadata(ActionEntity);
    const byId = new Map(rows.map((row) => [row.id as string, row]));
    return requests.map((request): ClaimResult => {
      const row = byId.get(request.id);
      if (!row || row.revision !== request.revision) return { kind: 'none' };
      if (row.due_in_ms !== null) return { kind: 'not-due', dueInMs: Number(row.due_in_ms) };
      // A job queued twice in one batch claims once: the request whose token won takes the row.
      if (row.claim_token !== request.token) return { kind: 'none' };
      return { kind: 'claimed', action: hydrate<ActionEntity>(metadata, row), takenOver: row.previous_status === 'IN_PROGRESS' };
    });
  }
}
