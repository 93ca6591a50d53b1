import { HELD_BY_PAUSE, claimableAt, onCalendarDate } from '../repositories/action-predicates';
import { UnnestColumns } from '../repositories/unnest-columns';
import { actionParameter } from './action-columns';

/** One job's request to claim its action, of the type whose queue the job came from, under a fresh fencing token. */
export interface ClaimRequest {
  id: string;
  revision: number;
  type: string;
  token: string;
}

/** A batch of claim requests, one array per column, in the order of the statement's `unnest`. */
export const CLAIM_COLUMNS = new UnnestColumns<ClaimRequest>([
  actionParameter<ClaimRequest>('id', (r) => r.id),
  actionParameter<ClaimRequest>('revision', (r) => r.revision),
  ['type', 'varchar', (r) => r.type],
  ['token', 'uuid', (r) => r.token],
]);

/**
 * Checked whenever an attempt comes due (the first, a retry, a manual retry), so a calendar's change
 * applies to every attempt still to come without touching a row.
 */
const ON_CALENDAR_DATE = onCalendarDate('a');

/**
 * The lifecycle's `claimed` event, decided by Postgres for a batch of jobs ($5: the lease in ms).
 * Every read of `actions` is driven by the requested ids through the primary key (`LATERAL`, then
 * the locked rows' `ctid`s): on a table a burst has just filled, whose statistics still say it is
 * empty, the planner would otherwise read every due row through the partial due-time index and
 * join them with the batch, a cost growing with the table for each batch. A prepared statement
 * keeps its plan, so the plan must be right whatever the statistics (`test/claim-plan.e2e-spec.ts`).
 * An occurrence a pause holds is not claimed: its job is dropped, and the resume queues it again.
 * Nor is a row of another type than the job's queue (its type was changed by hand): a worker takes
 * only actions it has the fulfillment of, and the row waits for the overdue sweep to queue it right.
 * One due on a date of its calendar is returned unclaimed, with `on_calendar_date`, for the caller
 * to skip.
 */
export const CLAIM_SQL = `WITH requested AS (
    SELECT * FROM ${CLAIM_COLUMNS.rows('r')} ORDER BY id
  ), claimable AS (
    -- Rows are locked in id order (the order of requested), so concurrent batches cannot deadlock.
    SELECT a.ctid AS row_id, a.id, a.status AS previous_status, r.token FROM requested r CROSS JOIN LATERAL (
      SELECT a.ctid, a.id, a.status FROM actions a
      WHERE a.id = r.id AND a.revision = r.revision AND a.action = r.type
        AND ((${claimableAt('now()')} AND NOT ${ON_CALENDAR_DATE})
          OR (a.status = 'IN_PROGRESS' AND a.claimed_until < now()))
      FOR UPDATE
    ) a
  ), claimed AS (
    UPDATE actions a SET status = 'IN_PROGRESS', claim_token = c.token,
      claimed_until = now() + $5 * interval '1 millisecond', updated_at = clock_timestamp()
    FROM (SELECT DISTINCT ON (id) row_id, id, previous_status, token FROM claimable ORDER BY id) c
    WHERE a.ctid = ANY(ARRAY(SELECT row_id FROM claimable)) AND a.ctid = c.row_id
    -- due_at: when this attempt was due, or became runnable when that was later (a past executionTime,
    -- a resume or a retry after its time): the firing lag counts from it, never from a time it could not run.
    -- runnable_since is on the clock of the process that wrote it: never later than this claim.
    RETURNING a.*, c.previous_status, greatest(a.next_attempt_at, least(a.runnable_since, now())) AS due_at
  ), history AS (
    -- A fresh claim writes what the lifecycle's 'claimed' event decides (attempt retry_count + 1); a takeover's entry is the lifecycle's 'interrupted', written after it.
    -- due_at, so the history tells each attempt's firing lag.
    INSERT INTO action_history (action_id, occurrence, from_status, to_status, attempt, note, at, due_at, event)
    SELECT id, occurrence, 'PENDING', 'IN_PROGRESS', retry_count + 1, NULL, clock_timestamp(), due_at, 'claimed' FROM claimed WHERE previous_status = 'PENDING'
  )
  SELECT c.*, NULL::bigint AS due_in_ms, false AS on_calendar_date FROM claimed c
  UNION ALL
  -- Not yet: due later, or running under a live claim (a re-delivered job waits for the lease to lapse);
  -- or due on a date of its calendar (on_calendar_date: it is skipped now).
  SELECT a.*, NULL::varchar, NULL::timestamptz, ceil(extract(epoch FROM
      CASE a.status WHEN 'PENDING' THEN a.next_attempt_at ELSE a.claimed_until END - now()) * 1000)::bigint,
    a.status = 'PENDING' AND a.next_attempt_at <= now()
  FROM requested r CROSS JOIN LATERAL (
    SELECT * FROM actions a
    WHERE a.id = r.id AND a.revision = r.revision AND a.action = r.type
      AND ((a.status = 'PENDING' AND a.next_attempt_at > now() AND NOT ${HELD_BY_PAUSE})
        OR (${claimableAt('now()')} AND ${ON_CALENDAR_DATE})
        OR (a.status = 'IN_PROGRESS' AND a.claimed_until >= now()))
    OFFSET 0 -- kept a subquery: flattened into a join, it would be planned like the one above is not
  ) a`;
