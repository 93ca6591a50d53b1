import { NewAction } from '../repositories/action-query.types';
import { UnnestColumns } from '../repositories/unnest-columns';
import { stateColumns } from './state-columns';

/** A batch of new actions, one array per column, in the order of the statement's `unnest`. */
export const NEW_ACTION_COLUMNS = new UnnestColumns<NewAction>([
  ['id', 'uuid', (a) => a.id],
  ['tenant_id', 'varchar', (a) => a.tenantId],
  ['action', 'varchar', (a) => a.action],
  ['api_key_id', 'varchar', (a) => a.apiKeyId],
  ...stateColumns<NewAction>((a) => a.state),
  ['history_note', 'text', (a) => a.history.note],
]);

/**
 * Inserts actions in their first lifecycle state, and their "created" history entries. It returns
 * only what Postgres adds (the creation time): the rest is what was sent, so a batch's rows are
 * not read back and parsed again.
 */
export const INSERT_ACTIONS_SQL = `WITH incoming AS (
    SELECT * FROM unnest(
      $1::uuid[], $2::varchar[], $3::varchar[], $4::varchar[],
      $5::varchar[], $6::integer[], $7::integer[], $8::text[], $9::timestamptz[], $10::timestamptz[], $11::timestamptz[],
      $12::boolean[], $13::varchar[], $14::varchar[], $15::varchar[], $16::integer[], $17::timestamptz[], $18::text[],
      $19::varchar[], $20::text[], $21::text[], $22::varchar[], $23::varchar[], $24::varchar[], $25::timestamptz[], $26::integer[],
      $27::integer[], $28::text[], $29::varchar[], $30::integer[], $31::integer[], $32::integer[], $33::timestamptz[], $34::text[]
    ) AS n(
      id, tenant_id, action, api_key_id,
      status, occurrence, retry_count, last_error, execution_time, next_attempt_at, schedule_anchor,
      repeat, frequency, cron, timezone, execution_remainder, end_at, retry_policy,
      misfire_policy, data, metadata, callback_url, data_key_id, callback_key_id, cancel_requested_at, paused_from,
      skip_pending, dst_policy, calendar, jitter_ms, jitter_seed, revision, runnable_since, history_note
    )
  ), inserted AS (
    INSERT INTO actions (
      id, tenant_id, action, api_key_id,
      status, occurrence, retry_count, last_error, execution_time, next_attempt_at, schedule_anchor,
      repeat, frequency, cron, timezone, execution_remainder, end_at, retry_policy,
      misfire_policy, data, metadata, callback_url, data_key_id, callback_key_id, cancel_requested_at, paused_from,
      skip_pending, dst_policy, calendar, jitter_ms, jitter_seed, revision, runnable_since
    )
    SELECT id, tenant_id, action, api_key_id,
      status, occurrence, retry_count, last_error, execution_time, next_attempt_at, schedule_anchor,
      repeat, frequency, cron, timezone, execution_remainder, end_at, retry_policy::jsonb,
      misfire_policy, data::json, metadata::json, callback_url, data_key_id, callback_key_id, cancel_requested_at, paused_from,
      skip_pending, dst_policy::jsonb, calendar, jitter_ms, jitter_seed, revision, runnable_since
    FROM incoming
    RETURNING id, occurrence, status, created_at, updated_at
  ), history AS (
    INSERT INTO action_history (action_id, occurrence, from_status, to_status, attempt, note, at, event)
    SELECT i.id, i.occurrence, NULL, i.status, 0, n.history_note, clock_timestamp(), 'created'
    FROM inserted i JOIN incoming n USING (id)
  )
  SELECT id, created_at, updated_at FROM inserted`;
