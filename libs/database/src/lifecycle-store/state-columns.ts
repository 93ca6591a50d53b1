import { ActionEntity } from '../entities/action.entity';
import { ActionNotice, ActionState, HistoryDraft, Transition, attemptOutcomeOf, skipEntry } from '@app/domain';
import { UnnestColumn } from '../repositories/unnest-columns';

/**
 * Every lifecycle field with its column in `actions` and the type it travels as in a batch
 * parameter (json and jsonb as text, cast in the statement). The compiler keeps it complete as
 * `ActionState` grows; `state-columns.spec.ts` holds it to the entity's column decorators, and
 * the statements name the same columns in the same order.
 */
export const STATE_COLUMNS: { readonly [F in keyof ActionState]-?: readonly [column: string, travelsAs: string] } = {
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
  retryPolicy: ['retry_policy', 'text'],
  misfirePolicy: ['misfire_policy', 'varchar'],
  data: ['data', 'text'],
  metadata: ['metadata', 'text'],
  callbackUrl: ['callback_url', 'varchar'],
  dataKeyId: ['data_key_id', 'varchar'],
  callbackKeyId: ['callback_key_id', 'varchar'],
  cancelRequestedAt: ['cancel_requested_at', 'timestamptz'],
  pausedFrom: ['paused_from', 'integer'],
  skipPending: ['skip_pending', 'integer'],
  dstPolicy: ['dst_policy', 'text'],
  calendar: ['calendar', 'varchar'],
  jitterMs: ['jitter_ms', 'integer'],
  jitterSeed: ['jitter_seed', 'integer'],
  revision: ['revision', 'integer'],
  runnableSince: ['runnable_since', 'timestamptz'],
};

/** The lifecycle fields, in the order of STATE_COLUMNS. */
export const STATE_FIELDS = Object.keys(STATE_COLUMNS) as (keyof ActionState)[];

/** The fields stored as json or jsonb: they travel as JSON text. */
const JSON_FIELDS: ReadonlySet<keyof ActionState> = new Set(['retryPolicy', 'data', 'metadata', 'dstPolicy']);

/** `fields` of the state `stateOf` picks, as batch columns in STATE_COLUMNS order. */
export function stateColumns<T>(stateOf: (item: T) => ActionState, fields: readonly (keyof ActionState)[] = STATE_FIELDS): UnnestColumn<T>[] {
  return STATE_FIELDS.filter((field) => fields.includes(field)).map((field) => {
    const [column, travelsAs] = STATE_COLUMNS[field];
    return [column, travelsAs, (item: T) => parameterOf(stateOf(item), field)] as const;
  });
}

function parameterOf(state: ActionState, field: keyof ActionState): unknown {
  const value = state[field];
  return JSON_FIELDS.has(field) && value !== null ? JSON.stringify(value) : value;
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
  const entriesOf = ({ skipped, after }: Transition<ActionEntity>) =>
    skipped.map((skip) => {
      const entry = skipEntry(skip, after.occurrence);
      return { from_status: entry.from, to_status: entry.to, occurrence: entry.occurrence, attempt: entry.attempt, note: entry.note };
    });
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
