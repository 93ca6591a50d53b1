/**
 * The statement part that writes the notices of the rows a state change returned (`a.*` plus the
 * notice columns) into the webhook outbox, in the same statement as the change: an event exists
 * exactly when its change committed. `extraColumns` are the other returned columns that are not
 * the action's, left out of the stored snapshot. Triggers drop events nobody listens to; when
 * there is no subscription at all they are not even written.
 */
export function outboxInsertSql(changed: string, extraColumns: readonly string[]): string {
  const notAction = [...extraColumns, 'notice_type', 'notice_occurrence', 'notice_attempt', 'notice_note'].map((c) => `'${c}'`).join(', ');
  return `INSERT INTO webhook_events (type, action_id, action_type, occurrence, attempt, note, action, callback_url, api_key_id)
    SELECT c.notice_type, c.id, c.action, c.notice_occurrence, c.notice_attempt, c.notice_note,
      to_jsonb(c) - ARRAY[${notAction}]::text[], c.callback_url, c.callback_key_id
    FROM ${changed} c WHERE c.notice_type IS NOT NULL
      -- Once per statement: with no subscription at all, actions without a callback skip the snapshot and the triggers.
      AND (c.callback_url IS NOT NULL OR EXISTS (SELECT 1 FROM webhook_subscriptions))`;
}
