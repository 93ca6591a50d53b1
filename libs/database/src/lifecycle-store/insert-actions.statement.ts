import { NewAction } from '../repositories/action-query.types';
import { UnnestColumns } from '../repositories/unnest-columns';
import { ActionField, actionParameter, columnList, selectedColumns } from './action-columns';
import { STATE_FIELDS, stateColumns } from './state-columns';

/** The columns an insert fills: who made the action, then its first lifecycle state. */
const INSERTED_FIELDS: readonly ActionField[] = ['id', 'tenantId', 'action', 'apiKeyId', ...STATE_FIELDS];

/** A batch of new actions, one array per column, in the order of the statement's `unnest`. */
export const NEW_ACTION_COLUMNS = new UnnestColumns<NewAction>([
  actionParameter<NewAction>('id', (a) => a.id),
  actionParameter<NewAction>('tenantId', (a) => a.tenantId),
  actionParameter<NewAction>('action', (a) => a.action),
  actionParameter<NewAction>('apiKeyId', (a) => a.apiKeyId),
  ...stateColumns<NewAction>((a) => a.state),
  ['history_note', 'text', (a) => a.history.note],
]);

/**
 * Inserts actions in their first lifecycle state, and their "created" history entries. It returns
 * only what Postgres adds (the creation time): the rest is what was sent, so a batch's rows are
 * not read back and parsed again.
 */
export const INSERT_ACTIONS_SQL = `WITH incoming AS (
    SELECT * FROM ${NEW_ACTION_COLUMNS.rows('n')}
  ), inserted AS (
    INSERT INTO actions (${columnList(INSERTED_FIELDS)})
    SELECT ${selectedColumns(INSERTED_FIELDS, 'incoming', { castJson: true })}
    FROM incoming
    RETURNING id, occurrence, status, created_at, updated_at
  ), history AS (
    INSERT INTO action_history (action_id, occurrence, from_status, to_status, attempt, note, at, event)
    SELECT i.id, i.occurrence, NULL, i.status, 0, n.history_note, clock_timestamp(), 'created'
    FROM inserted i JOIN incoming n USING (id)
  )
  SELECT id, created_at, updated_at FROM inserted`;
