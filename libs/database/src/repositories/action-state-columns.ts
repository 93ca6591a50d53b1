import { getMetadataArgsStorage } from 'typeorm';
import { ActionState } from '@app/domain';
import { ActionEntity } from '../entities/action.entity';

/** Every lifecycle field, once: the compiler keeps the list complete as `ActionState` grows. */
const IS_STATE_FIELD: Record<keyof ActionState, true> = {
  status: true,
  occurrence: true,
  retryCount: true,
  lastError: true,
  executionTime: true,
  nextAttemptAt: true,
  scheduleAnchor: true,
  repeat: true,
  frequency: true,
  cron: true,
  timezone: true,
  executionRemainder: true,
  endAt: true,
  retryPolicy: true,
  misfirePolicy: true,
  data: true,
  metadata: true,
  callbackUrl: true,
  dataKeyId: true,
  callbackKeyId: true,
  cancelRequestedAt: true,
  revision: true,
};

/** The lifecycle fields, in one fixed order. */
export const STATE_FIELDS = Object.keys(IS_STATE_FIELD) as (keyof ActionState)[];

/**
 * Where each lifecycle field lives in the `actions` table, and its Postgres type, as the entity's
 * column decorators declare them (read when this module loads, before any connection).
 */
export const STATE_COLUMNS = Object.fromEntries(
  STATE_FIELDS.map((field) => {
    const column = getMetadataArgsStorage().columns.find((c) => c.target === ActionEntity && c.propertyName === field);
    if (!column || typeof column.options.type !== 'string') throw new Error(`ActionEntity declares no typed column for the lifecycle field ${field}`);
    return [field, [column.options.name ?? field, column.options.type] as const];
  }),
) as { readonly [K in keyof ActionState]-?: readonly [column: string, sqlType: string] };

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
