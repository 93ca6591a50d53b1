import { ActionState, Transition } from '@app/domain';
import { ActionEntity } from '../entities/action.entity';
import { UnnestColumns } from '../repositories/unnest-columns';
import { actionColumn, actionParameter } from './action-columns';
import { entryColumns, noticeColumns, skipNoticesColumn, skippedColumn, stateColumns } from './state-columns';
import { COMMITTED_EVENT_IDS_SQL, RECORD_COLUMNS, historyInsertSql, outboxInsertSql } from './change-records';

/**
 * The lifecycle fields an attempt's outcome can change (succeeded, failed, interrupted, or the
 * type found unknown); every other field is frozen while an action runs. The store refuses an
 * outcome that changes any other.
 */
export const OUTCOME_FIELDS: readonly (keyof ActionState)[] = [
  'status',
  'occurrence',
  'retryCount',
  'lastError',
  'executionTime',
  'nextAttemptAt',
  'executionRemainder',
  'skipPending',
  'revision',
  'runnableSince',
];

/** A batch of outcomes, one array per column, in the order of the statement's `unnest`. */
export const OUTCOME_COLUMNS = new UnnestColumns<Transition<ActionEntity>>([
  actionParameter<Transition<ActionEntity>>('id', (t) => t.before.id),
  actionParameter<Transition<ActionEntity>>('claimToken', (t) => t.before.claimToken),
  ['seen_cancel_requested_at', 'timestamptz', (t) => t.before.cancelRequestedAt],
  ['seen_skip_pending', 'integer', (t) => t.before.skipPending],
  ...stateColumns<Transition<ActionEntity>>((t) => t.after, OUTCOME_FIELDS),
  ['finished', 'boolean', (t) => t.finished],
  ...entryColumns<Transition<ActionEntity>>((t) => t),
  ...noticeColumns<Transition<ActionEntity>>((t) => t.notice),
  skippedColumn<Transition<ActionEntity>>((t) => t),
  skipNoticesColumn<Transition<ActionEntity>>((t) => t),
]);

/**
 * Writes attempts' outcomes, each only while the claim it was computed under still holds (its
 * fencing token) and no cancel or skip request arrived since its action was read (those change
 * what the outcome must be), with their history entries, skipped occurrences and webhook events. `finished_at` is set when the outcome finished the action; the
 * claim goes when the action leaves IN_PROGRESS. It answers only what Postgres filled in: the
 * rest is the claimed row and the outcome, which nothing else can change while the claim holds.
 */
export const RECORD_OUTCOMES_SQL = `WITH outcome AS (
    SELECT * FROM ${OUTCOME_COLUMNS.rows('o')}
  ), locked AS (
    SELECT o.* FROM actions a JOIN outcome o ON a.id = o.id AND a.claim_token = o.claim_token
    WHERE a.status = 'IN_PROGRESS' AND a.cancel_requested_at IS NOT DISTINCT FROM o.seen_cancel_requested_at
      AND a.skip_pending = o.seen_skip_pending
    -- Rows are locked in id order, so batches running side by side cannot deadlock.
    ORDER BY a.id FOR UPDATE OF a
  ), changed AS (
    UPDATE actions a SET
      ${OUTCOME_FIELDS.map((field) => `${actionColumn(field)} = o.${actionColumn(field)}`).join(',\n      ')},
      finished_at = CASE WHEN o.finished THEN now() END,
      claim_token = CASE WHEN o.status = 'IN_PROGRESS' THEN a.claim_token END,
      claimed_until = CASE WHEN o.status = 'IN_PROGRESS' THEN a.claimed_until END,
      updated_at = clock_timestamp()
    FROM locked o WHERE a.id = o.id
    RETURNING a.*, a AS snapshot, o.entry_from, o.entry_to, o.entry_occurrence, o.entry_attempt, o.entry_note, o.entry_event, o.entry_outcome,
      ${RECORD_COLUMNS.map((column) => `o.${column}`).join(', ')}
  ), history AS (
    ${historyInsertSql('changed')}
  ), notices AS (
    ${outboxInsertSql('changed')}
  )
  SELECT id, finished_at, claim_token, claimed_until, updated_at, ${COMMITTED_EVENT_IDS_SQL} FROM changed`;

/** What the outcome statement answers for each row it wrote: the columns Postgres fills. */
export interface RecordedRow {
  id: string;
  finished_at: Date | null;
  claim_token: string | null;
  claimed_until: Date | null;
  updated_at: Date;
  event_ids: string[] | null;
}
