import { ActionEntity } from '../entities/action.entity';
import { ActionNotice, ActionState, HistoryDraft, Transition, attemptOutcomeOf, skipEntriesOf } from '@app/domain';
import { UnnestColumn } from '../repositories/unnest-columns';
import { actionParameter, isJsonField } from './action-columns';

/**
 * Every lifecycle field, in the order the statements list them. The compiler keeps it complete as
 * `ActionState` grows, and each field's column and type are its entity decorator's (`actionColumn`).
 */
const LIFECYCLE_FIELDS: { readonly [F in keyof ActionState]-?: true } = {
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
  pausedFrom: true,
  skipPending: true,
  dstPolicy: true,
  calendar: true,
  jitterMs: true,
  jitterSeed: true,
  revision: true,
  runnableSince: true,
};

/** The lifecycle fields, in the order of LIFECYCLE_FIELDS. */
export const STATE_FIELDS = Object.keys(LIFECYCLE_FIELDS) as (keyof ActionState)[];

/** `fields` of the state `stateOf` picks, as batch columns in STATE_FIELDS order. */
export function stateColumns<T>(stateOf: (item: T) => ActionState, fields: readonly (keyof ActionState)[] = STATE_FIELDS): UnnestColumn<T>[] {
  return STATE_FIELDS.filter((field) => fields.includes(field)).map((field) => actionParameter(field, (item: T) => parameterOf(stateOf(item), field)));
}

function parameterOf(state: ActionState, field: keyof ActionState): unknown {
  const value = state[field];
  return isJsonField(field) && value !== null ? JSON.stringify(value) : value;
}

/**
 * A transition's history entry as batch columns, with the event it records (which the entries of
 * the occurrences it skipped record too) and, when the event ends an attempt, that attempt's outcome.
 */
export function entryColumns<T>(transitionOf: (item: T) => Transition<ActionEntity>): UnnestColumn<T>[] {
  const entryOf = (item: T): HistoryDraft => transitionOf(item).history[0];
  return [
    ['entry_from', 'varchar', (item) => entryOf(item).from],
    ['entry_to', 'varchar', (item) => entryOf(item).to],
    ['entry_occurrence', 'integer', (item) => entryOf(item).occurrence],
    ['entry_attempt', 'integer', (item) => entryOf(item).attempt],
    ['entry_note', 'text', (item) => entryOf(item).note],
    ['entry_event', 'varchar', (item) => transitionOf(item).event],
    ['entry_outcome', 'varchar', (item) => attemptOutcomeOf(transitionOf(item).event)],
  ];
}

/** A transition's notice as batch columns: `notice_type` is null when the transition tells nobody anything. */
export function noticeColumns<T>(noticeOf: (item: T) => ActionNotice | null): UnnestColumn<T>[] {
  return [
    ['notice_type', 'varchar', (item) => noticeOf(item)?.type ?? null],
    ['notice_occurrence', 'integer', (item) => noticeOf(item)?.occurrence ?? null],
    ['notice_attempt', 'integer', (item) => noticeOf(item)?.attempt ?? null],
    ['notice_note', 'text', (item) => noticeOf(item)?.note ?? null],
  ];
}

/**
 * Rows a transition writes beside its own, as one batch column: a JSON array for
 * `jsonb_to_recordset`, or null when there are none (the common case costs nothing).
 */
function jsonRowsColumn<T>(
  name: string,
  rowsOf: (transition: Transition<ActionEntity>) => object[],
  transitionOf: (item: T) => Transition<ActionEntity>,
): UnnestColumn<T> {
  return [
    name,
    'jsonb',
    (item) => {
      const rows = rowsOf(transitionOf(item));
      return rows.length === 0 ? null : JSON.stringify(rows);
    },
  ];
}

/** A transition's skipped occurrences as one batch column: their history entries. */
export function skippedColumn<T>(transitionOf: (item: T) => Transition<ActionEntity>): UnnestColumn<T> {
  const entriesOf = (t: Transition<ActionEntity>) =>
    skipEntriesOf(t).map((entry) => ({
      from_status: entry.from,
      to_status: entry.to,
      occurrence: entry.occurrence,
      attempt: entry.attempt,
      note: entry.note,
    }));
  return jsonRowsColumn('skipped', entriesOf, transitionOf);
}

/** A transition's skip notices as one batch column: its `action.occurrence_skipped` events, one per reason. */
export function skipNoticesColumn<T>(transitionOf: (item: T) => Transition<ActionEntity>): UnnestColumn<T> {
  const eventsOf = ({ skipNotices, after }: Transition<ActionEntity>) =>
    skipNotices.map((notice) => ({
      // Like their history entries, the events carry the number of the occurrence that runs after them.
      occurrence: after.occurrence,
      note: notice.note,
      reason: notice.reason,
      skipped: notice.times.map((time) => time.toISOString()),
      skipped_count: notice.count,
    }));
  return jsonRowsColumn('skip_notices', eventsOf, transitionOf);
}

/** The fields whose value differs between two states. */
export function changedFields(before: ActionState, after: ActionState): (keyof ActionState)[] {
  return STATE_FIELDS.filter((field) => !sameValue(before[field], after[field]));
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return a === b || (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null && JSON.stringify(a) === JSON.stringify(b));
}
