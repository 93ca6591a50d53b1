import { ActionState, Transition, UnlockedGuard } from '@app/domain';
import { ActionEntity } from '../entities/action.entity';
import { UnnestColumns } from '../repositories/unnest-columns';
import { STATE_COLUMNS, entryColumns, noticeColumns, stateColumns } from './state-columns';
import { outboxInsertSql } from './webhook-outbox';

/** A change by a client or the promoter, with the guard it was decided under and the fields it changed. */
export interface Change {
  transition: Transition<ActionEntity>;
  guard: UnlockedGuard;
  changed: readonly (keyof ActionState)[];
  /** Its place in the batch: of two changes of one action in a batch, the first goes and the second finds it moved on. */
  ord: number;
}

/** A batch of changes, one array per column, in the order of the statement's `unnest`. Only changed fields travel; status always does. */
export const CHANGE_COLUMNS = new UnnestColumns<Change>([
  ['ord', 'integer', (c) => c.ord],
  ['id', 'uuid', (c) => c.transition.before.id],
  ['expected_revision', 'integer', (c) => c.transition.before.revision],
  ['expected_statuses', 'text', (c) => c.guard.statuses.join(',')],
  ['due_after', 'timestamptz', (c) => c.guard.dueAfter ?? null],
  ['changed', 'text', (c) => c.changed.map((field) => STATE_COLUMNS[field][0]).join(',')],
  ...stateColumns<Change>(
    (c) => c.transition.after,
    undefined,
    (c, field) => field === 'status' || c.changed.includes(field),
  ),
  ['finished', 'boolean', (c) => c.transition.finished],
  ...entryColumns<Change>((c) => c.transition.history[0]),
  ...noticeColumns<Change>((c) => c.transition.notice),
]);

/**
 * Writes changes decided at a revision (a client's patch, cancel or manual retry, the promoter's
 * NO_ACTION), each only while its row is still at that revision, in one of the statuses it was
 * read in and, when `due_after` is set, due after it (the lock window), with their history
 * entries and webhook notices. Only changed fields are written, so two changes of different
 * fields read at the same revision (a patch of `metadata` beside a cancel request) both stand.
 * `finished_at` follows a change of status; the claim goes when the action leaves IN_PROGRESS.
 * It answers each row as written (another change of other fields may have landed first).
 */
export const APPLY_CHANGES_SQL = `WITH change AS (
    SELECT * FROM unnest(
      $1::integer[], $2::uuid[], $3::integer[], $4::text[], $5::timestamptz[], $6::text[],
      $7::varchar[], $8::integer[], $9::integer[], $10::text[], $11::timestamptz[], $12::timestamptz[], $13::timestamptz[],
      $14::boolean[], $15::varchar[], $16::varchar[], $17::varchar[], $18::integer[], $19::timestamptz[], $20::text[],
      $21::varchar[], $22::text[], $23::text[], $24::varchar[], $25::varchar[], $26::varchar[], $27::timestamptz[], $28::integer[],
      $29::boolean[],
      $30::varchar[], $31::varchar[], $32::integer[], $33::integer[], $34::text[],
      $35::varchar[], $36::integer[], $37::integer[], $38::text[]
    ) AS c(
      ord, id, expected_revision, expected_statuses, due_after, changed,
      status, occurrence, retry_count, last_error, execution_time, next_attempt_at, schedule_anchor,
      repeat, frequency, cron, timezone, execution_remainder, end_at, retry_policy,
      misfire_policy, data, metadata, callback_url, data_key_id, callback_key_id, cancel_requested_at, revision,
      finished,
      entry_from, entry_to, entry_occurrence, entry_attempt, entry_note,
      notice_type, notice_occurrence, notice_attempt, notice_note
    )
  ), locked AS (
    SELECT c.*, string_to_array(c.changed, ',') AS fields
    FROM actions a JOIN (SELECT DISTINCT ON (id) * FROM change ORDER BY id, ord) c ON a.id = c.id
    WHERE a.revision = c.expected_revision AND a.status = ANY(string_to_array(c.expected_statuses, ','))
      AND (c.due_after IS NULL OR a.execution_time > c.due_after)
    -- Rows are locked in id order, so batches running side by side cannot deadlock.
    ORDER BY a.id FOR UPDATE OF a
  ), changed AS (
    UPDATE actions a SET
      status = CASE WHEN 'status' = ANY(c.fields) THEN c.status ELSE a.status END,
      occurrence = CASE WHEN 'occurrence' = ANY(c.fields) THEN c.occurrence ELSE a.occurrence END,
      retry_count = CASE WHEN 'retry_count' = ANY(c.fields) THEN c.retry_count ELSE a.retry_count END,
      last_error = CASE WHEN 'last_error' = ANY(c.fields) THEN c.last_error ELSE a.last_error END,
      execution_time = CASE WHEN 'execution_time' = ANY(c.fields) THEN c.execution_time ELSE a.execution_time END,
      next_attempt_at = CASE WHEN 'next_attempt_at' = ANY(c.fields) THEN c.next_attempt_at ELSE a.next_attempt_at END,
      schedule_anchor = CASE WHEN 'schedule_anchor' = ANY(c.fields) THEN c.schedule_anchor ELSE a.schedule_anchor END,
      repeat = CASE WHEN 'repeat' = ANY(c.fields) THEN c.repeat ELSE a.repeat END,
      frequency = CASE WHEN 'frequency' = ANY(c.fields) THEN c.frequency ELSE a.frequency END,
      cron = CASE WHEN 'cron' = ANY(c.fields) THEN c.cron ELSE a.cron END,
      timezone = CASE WHEN 'timezone' = ANY(c.fields) THEN c.timezone ELSE a.timezone END,
      execution_remainder = CASE WHEN 'execution_remainder' = ANY(c.fields) THEN c.execution_remainder ELSE a.execution_remainder END,
      end_at = CASE WHEN 'end_at' = ANY(c.fields) THEN c.end_at ELSE a.end_at END,
      retry_policy = CASE WHEN 'retry_policy' = ANY(c.fields) THEN c.retry_policy::jsonb ELSE a.retry_policy END,
      misfire_policy = CASE WHEN 'misfire_policy' = ANY(c.fields) THEN c.misfire_policy ELSE a.misfire_policy END,
      data = CASE WHEN 'data' = ANY(c.fields) THEN c.data::jsonb ELSE a.data END,
      metadata = CASE WHEN 'metadata' = ANY(c.fields) THEN c.metadata::jsonb ELSE a.metadata END,
      callback_url = CASE WHEN 'callback_url' = ANY(c.fields) THEN c.callback_url ELSE a.callback_url END,
      data_key_id = CASE WHEN 'data_key_id' = ANY(c.fields) THEN c.data_key_id ELSE a.data_key_id END,
      callback_key_id = CASE WHEN 'callback_key_id' = ANY(c.fields) THEN c.callback_key_id ELSE a.callback_key_id END,
      cancel_requested_at = CASE WHEN 'cancel_requested_at' = ANY(c.fields) THEN c.cancel_requested_at ELSE a.cancel_requested_at END,
      revision = CASE WHEN 'revision' = ANY(c.fields) THEN c.revision ELSE a.revision END,
      finished_at = CASE WHEN 'status' = ANY(c.fields) THEN CASE WHEN c.finished THEN now() END ELSE a.finished_at END,
      claim_token = CASE WHEN c.status = 'IN_PROGRESS' THEN a.claim_token END,
      claimed_until = CASE WHEN c.status = 'IN_PROGRESS' THEN a.claimed_until END,
      updated_at = clock_timestamp()
    FROM locked c WHERE a.id = c.id
    RETURNING a.*, c.ord, c.entry_from, c.entry_to, c.entry_occurrence, c.entry_attempt, c.entry_note,
      c.notice_type, c.notice_occurrence, c.notice_attempt, c.notice_note
  ), history AS (
    INSERT INTO action_history (action_id, occurrence, from_status, to_status, attempt, note, at)
    SELECT id, entry_occurrence, entry_from, entry_to, entry_attempt, entry_note, clock_timestamp() FROM changed
  ), notices AS (
    ${outboxInsertSql('changed', ['ord', 'entry_from', 'entry_to', 'entry_occurrence', 'entry_attempt', 'entry_note'])}
  )
  SELECT ord, to_jsonb(c) - ARRAY[
      'ord', 'entry_from', 'entry_to', 'entry_occurrence', 'entry_attempt', 'entry_note',
      'notice_type', 'notice_occurrence', 'notice_attempt', 'notice_note'
    ] AS row_json
  FROM changed c`;
