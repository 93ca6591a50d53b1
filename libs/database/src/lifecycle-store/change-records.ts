// The parts every state-changing statement shares after its UPDATE: the records of the change,
// written in the same statement so that they exist exactly when the change committed.

/** The columns a state change returns besides the action's own: its notice and its skips. */
export const RECORD_COLUMNS = ['notice_type', 'notice_occurrence', 'notice_attempt', 'notice_note', 'skipped', 'skip_notices'] as const;

/**
 * The statement part that writes the events of the rows a state change returned (`a.*`, the row
 * as a whole as `snapshot`, and the RECORD_COLUMNS) into the webhook outbox, in the same statement
 * as the change: an event exists exactly when its change committed. Each row gives an
 * `action.occurrence_skipped` event per entry of `skip_notices` (one per reason, however many
 * occurrences it skipped), then its notice, if any. The event keeps the action as `to_json` of the
 * row, which holds `data` and `metadata` as their stored text, keys in the order sent. Triggers
 * drop events nobody listens to; when there is no subscription at all they are not even written.
 * It returns the ids of the events kept, whose deliveries are queued once the statement committed
 * (`committedEventIdsSql`).
 */
export function outboxInsertSql(changed: string): string {
  const snapshot = 'to_json(c.snapshot)';
  // Once per statement: with no subscription at all, actions without a callback skip the snapshot and the triggers.
  const wanted = '(c.callback_url IS NOT NULL OR EXISTS (SELECT 1 FROM webhook_subscriptions))';
  return `INSERT INTO webhook_events (tenant_id, type, action_id, action_type, occurrence, attempt, note, reason, skipped, skipped_count, action, callback_url, api_key_id)
    SELECT c.tenant_id, 'action.occurrence_skipped', c.id, c.action, s.occurrence, 0, s.note, s.reason, s.skipped, s.skipped_count,
        ${snapshot}, c.callback_url, c.callback_key_id
      FROM ${changed} c
        CROSS JOIN LATERAL jsonb_to_recordset(c.skip_notices) AS s(occurrence integer, note text, reason varchar, skipped jsonb, skipped_count integer)
      WHERE c.skip_notices IS NOT NULL AND ${wanted}
    UNION ALL
    SELECT c.tenant_id, c.notice_type, c.id, c.action, c.notice_occurrence, c.notice_attempt, c.notice_note, NULL, NULL, NULL, ${snapshot}, c.callback_url,
        c.callback_key_id
      FROM ${changed} c WHERE c.notice_type IS NOT NULL AND ${wanted}
    RETURNING id`;
}

/**
 * A statement's answer column holding the ids of the events its outbox insert (the CTE `notices`)
 * kept, on its first row only (null on the others, and when it kept none): repeated on every row,
 * a statement of n outcomes would send and parse n² ids.
 */
export const COMMITTED_EVENT_IDS_SQL = 'CASE WHEN row_number() OVER () = 1 THEN (SELECT array_agg(id) FROM notices) END AS event_ids';

/**
 * The statement part that writes a change's skipped occurrences' history entries, then its own
 * entry. Every entry records the event that wrote it; only the change's own entry can end an
 * attempt, so only it carries an outcome.
 */
export function historyInsertSql(changed: string): string {
  return `INSERT INTO action_history (action_id, occurrence, from_status, to_status, attempt, note, at, event, outcome)
    SELECT c.id, s.occurrence, s.from_status, s.to_status, s.attempt, s.note, clock_timestamp(), c.entry_event, NULL
      FROM ${changed} c CROSS JOIN LATERAL jsonb_to_recordset(c.skipped)
        AS s(from_status varchar, to_status varchar, occurrence integer, attempt integer, note text)
      WHERE c.skipped IS NOT NULL
    UNION ALL
    SELECT id, entry_occurrence, entry_from, entry_to, entry_attempt, entry_note, clock_timestamp(), entry_event, entry_outcome FROM ${changed}`;
}
