import { ActionState, Transition, UnlockedGuard } from '@app/domain';
import { ActionEntity } from '../entities/action.entity';
import { UnnestColumns } from '../repositories/unnest-columns';
import { actionColumn, columnList, selectedColumns } from './action-columns';
import { STATE_FIELDS, entryColumns, noticeColumns, skipNoticesColumn, skippedColumn } from './state-columns';
import { COMMITTED_EVENT_IDS_SQL, RECORD_COLUMNS, historyInsertSql, outboxInsertSql } from './change-records';

/** A change by a client or the promoter, with the guard it was decided under and the fields it changed. */
export interface Change {
  transition: Transition<ActionEntity>;
  guard: UnlockedGuard;
  changed: readonly (keyof ActionState)[];
  /** Its place in the batch: of two changes of one action in a batch, the first goes and the second finds it moved on. */
  ord: number;
}

/** The changed fields' new values as one JSON object keyed by column (json and jsonb columns hold their value as JSON). */
function changesOf({ transition, changed }: Change): string {
  return JSON.stringify(Object.fromEntries(changed.map((field) => [actionColumn(field), transition.after[field]])));
}

/** A batch of changes, one array per column, in the order of the statement's `unnest`. */
export const CHANGE_COLUMNS = new UnnestColumns<Change>([
  ['ord', 'integer', (c) => c.ord],
  ['id', 'uuid', (c) => c.transition.before.id],
  ['expected_revision', 'integer', (c) => c.transition.before.revision],
  ['expected_statuses', 'text', (c) => c.guard.statuses.join(',')],
  ['due_after', 'timestamptz', (c) => c.guard.dueAfter ?? null],
  ['changes', 'json', changesOf],
  ['finished', 'boolean', (c) => c.transition.finished],
  ...entryColumns<Change>((c) => c.transition),
  ...noticeColumns<Change>((c) => c.transition.notice),
  skippedColumn<Change>((c) => c.transition),
  skipNoticesColumn<Change>((c) => c.transition),
  // A pause changes no revision: a change decided on an unpaused row (the promoter's NO_ACTION) must not land on a paused one.
  ['expected_paused_from', 'integer', (c) => c.transition.before.pausedFrom],
]);

/**
 * Writes changes decided at a revision (a client's patch, cancel or manual retry, the promoter's
 * NO_ACTION), each only while its row is still at that revision, in one of the statuses it was
 * read in, paused from the occurrence it was read paused from (or not paused, as read), and, when
 * `due_after` is set, due after it (the lock window), with their history
 * entries and webhook notices. Only the fields in `changes` are written (`json_populate_record`
 * keeps the row's own value for every other column, and a json field's text as it came, keys in
 * the order sent), so two changes of different fields read at the same revision (a patch of
 * `metadata` beside a cancel request) both stand. `finished_at` follows a change of status; the
 * claim goes when the action leaves IN_PROGRESS. It answers each row as written (another change
 * of other fields may have landed first), as `to_json` of the row, which keeps that text too.
 */
export const APPLY_CHANGES_SQL = `WITH change AS (
    SELECT * FROM ${CHANGE_COLUMNS.rows('c')}
  ), locked AS (
    SELECT c.* FROM actions a JOIN (SELECT DISTINCT ON (id) * FROM change ORDER BY id, ord) c ON a.id = c.id
    WHERE a.revision = c.expected_revision AND a.status = ANY(string_to_array(c.expected_statuses, ','))
      AND (c.due_after IS NULL OR a.execution_time > c.due_after) AND a.paused_from IS NOT DISTINCT FROM c.expected_paused_from
    -- Rows are locked in id order, so batches running side by side cannot deadlock.
    ORDER BY a.id FOR UPDATE OF a
  ), changed AS (
    UPDATE actions a SET
      (${columnList(STATE_FIELDS)})
      = (SELECT ${selectedColumns(STATE_FIELDS, 'n')}
        FROM json_populate_record(a, c.changes) n),
      finished_at = CASE WHEN c.changes->'status' IS NOT NULL THEN CASE WHEN c.finished THEN now() END ELSE a.finished_at END,
      claim_token = CASE WHEN coalesce(c.changes->>'status', a.status) = 'IN_PROGRESS' THEN a.claim_token END,
      claimed_until = CASE WHEN coalesce(c.changes->>'status', a.status) = 'IN_PROGRESS' THEN a.claimed_until END,
      updated_at = clock_timestamp()
    FROM locked c WHERE a.id = c.id
    RETURNING a.*, a AS snapshot, c.ord, c.entry_from, c.entry_to, c.entry_occurrence, c.entry_attempt, c.entry_note, c.entry_event, c.entry_outcome,
      ${RECORD_COLUMNS.map((column) => `c.${column}`).join(', ')}
  ), history AS (
    ${historyInsertSql('changed')}
  ), notices AS (
    ${outboxInsertSql('changed')}
  )
  SELECT ord, to_json(snapshot) AS row_json, ${COMMITTED_EVENT_IDS_SQL} FROM changed`;
