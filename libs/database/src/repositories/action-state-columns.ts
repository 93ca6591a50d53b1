import { ActionState } from '@app/domain';

/** Where each lifecycle field lives in the `actions` table, and its Postgres type. */
export const STATE_COLUMNS: { readonly [K in keyof ActionState]-?: readonly [column: string, sqlType: string] } = {
  status: ['status', 'varchar'],
  occurrence: ['occurrence', 'integer'],
  retryCount: ['retry_count', 'integer'],
  lastError: ['last_error', 'text'],
  executionTime: ['execution_time', 'timestamptz'],
  nextAttemptAt: ['next_attempt_at', 'timestamptz'],
  scheduleAnchor: ['schedule_anchor', 'timestamptz'],
  repeat: ['repeat', 'boolean'],
  frequency: ['frequency', 'varchar'],
  cron: ['cron', 'varchar'],
  timezone: ['timezone', 'varchar'],
  executionRemainder: ['execution_remainder', 'integer'],
  endAt: ['end_at', 'timestamptz'],
  retryPolicy: ['retry_policy', 'jsonb'],
  misfirePolicy: ['misfire_policy', 'varchar'],
  data: ['data', 'jsonb'],
  metadata: ['metadata', 'jsonb'],
  callbackUrl: ['callback_url', 'varchar'],
  dataKeyId: ['data_key_id', 'varchar'],
  callbackKeyId: ['callback_key_id', 'varchar'],
  cancelRequestedAt: ['cancel_requested_at', 'timestamptz'],
  revision: ['revision', 'integer'],
};

/** The lifecycle fields, in one fixed order. */
export const STATE_FIELDS = Object.keys(STATE_COLUMNS) as (keyof ActionState)[];

/** A field's value as a statement parameter (jsonb travels as JSON text). */
export function columnValue(state: ActionState, field: keyof ActionState): unknown {
  const value = state[field];
  return STATE_COLUMNS[field][1] === 'jsonb' && value !== null ? JSON.stringify(value) : value;
}

/** The fields whose value differs between two states. */
export function changedFields(before: ActionState, after: ActionState): (keyof ActionState)[] {
  return STATE_FIELDS.filter((field) => !sameValue(before[field], after[field]));
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return a === b || (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null && JSON.stringify(a) === JSON.stringify(b));
}
