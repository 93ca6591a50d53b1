import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ActionState, Transition, UnlockedGuard } from '@app/domain';
import { ActionEntity } from '../entities/action.entity';
import { STATE_COLUMNS, STATE_FIELDS, changedFields, columnValue } from './action-state-columns';
import { GroupCommit } from './group-commit';
import { blankEntity, hydrateJson } from './hydrate';
import { preparedQuery } from './prepared-query';
import { UnnestColumns } from './unnest-columns';
import { noticeColumns, outboxInsertSql } from './webhook-outbox';

/** What must still hold of the row for a transition computed from `transition.before` to be written. */
export type TransitionGuard =
  /**
   * A change by a client or the promoter: the row is at the revision it was read at and in one of
   * `statuses`; with `dueAfter`, its occurrence is also still due after it (outside the lock window).
   */
  | ({ readonly kind: 'revision' } & UnlockedGuard)
  /** An attempt's outcome: the claim it was computed under still holds, and no cancellation arrived since it was read. */
  | { readonly kind: 'claim' };

interface Write {
  transition: Transition<ActionEntity>;
  guard: TransitionGuard;
  /** The fields the transition changed, one bit each (BIT). */
  changed: number;
  /** Its place in the batch: two writes of one action in a batch, the first goes and the second finds it moved on. */
  ord: number;
}

/** The bit of each lifecycle field in a write's `changed` mask, in STATE_FIELDS order. */
const BIT = Object.fromEntries(STATE_FIELDS.map((field, i) => [field, 1 << i])) as Record<keyof ActionState, number>;

const entryOf = (w: Write) => w.transition.history[0];

const WRITE_COLUMNS = new UnnestColumns<Write>([
  ['id', 'uuid', (w) => w.transition.before.id],
  ['ord', 'integer', (w) => w.ord],
  ['guard_token', 'uuid', (w) => (w.guard.kind === 'claim' ? w.transition.before.claimToken : null)],
  ['guard_revision', 'integer', (w) => (w.guard.kind === 'revision' ? w.transition.before.revision : null)],
  ['guard_statuses', 'text', (w) => (w.guard.kind === 'revision' ? w.guard.statuses.join(',') : null)],
  ['guard_due_after', 'timestamptz', (w) => (w.guard.kind === 'revision' ? (w.guard.dueAfter ?? null) : null)],
  ['seen_cancel_requested_at', 'timestamptz', (w) => w.transition.before.cancelRequestedAt],
  ['changed', 'integer', (w) => w.changed],
  // Only changed fields travel (status always: the claim is kept or cleared by it).
  ...STATE_FIELDS.map((field) => {
    const [column, sqlType] = STATE_COLUMNS[field];
    const sent = (w: Write) => field === 'status' || (w.changed & BIT[field]) !== 0;
    return [column, sqlType === 'jsonb' ? 'text' : sqlType, (w: Write) => (sent(w) ? columnValue(w.transition.after, field) : null)] as const;
  }),
  ['finished', 'boolean', (w) => w.transition.finished],
  ['entry_from', 'varchar', (w) => entryOf(w).from],
  ['entry_to', 'varchar', (w) => entryOf(w).to],
  ['entry_occurrence', 'integer', (w) => entryOf(w).occurrence],
  ['entry_attempt', 'integer', (w) => entryOf(w).attempt],
  ['entry_note', 'text', (w) => entryOf(w).note],
  ...noticeColumns<Write>((w) => w.transition.notice),
]);

/** The columns `changed` returns beside the action's own (and the notice's). */
const WRITE_EXTRA_COLUMNS = ['ord', 'guard_token', 'entry_from', 'entry_to', 'entry_occurrence', 'entry_attempt', 'entry_note'];

/** `column = the new value if its bit is set, else as it is`, for every lifecycle field. */
const SET_CHANGED_FIELDS = STATE_FIELDS.map((field) => {
  const [column, sqlType] = STATE_COLUMNS[field];
  return `${column} = CASE WHEN t.changed & ${BIT[field]} <> 0 THEN t.${column}${sqlType === 'jsonb' ? '::jsonb' : ''} ELSE a.${column} END`;
}).join(',\n           ');

/** The revision guard of `alias`'s row as SQL: still at `revision`, in one of `statuses`, and due after `dueAfter` when it is not null. */
function revisionGuardSql(alias: string, revision: string, statuses: string, dueAfter: string): string {
  return `${alias}.revision = ${revision} AND ${alias}.status = ANY(${statuses}) AND (${dueAfter} IS NULL OR ${alias}.execution_time > ${dueAfter})`;
}

/**
 * Writes transitions, each under its guard, with their history entries and webhook notices, in one
 * statement. Only changed fields are written, so two changes of different fields read at the same
 * revision (a patch of `metadata` beside a cancel request) both stand. `finished_at` is set when a
 * change of status finished the action and cleared when it did not; the claim goes when the
 * action leaves IN_PROGRESS.
 *
 * A client's change answers the row as written (`row_json`: another change of other fields may have
 * landed first); an outcome answers only what Postgres filled in, the rest being the claimed row
 * and the outcome, which nothing else can change while the claim holds.
 */
export const WRITE_TRANSITIONS_SQL = `WITH target AS (
    SELECT * FROM ${WRITE_COLUMNS.rows('t')}
  ), locked AS (
    SELECT t.* FROM actions a JOIN (SELECT DISTINCT ON (id) * FROM target ORDER BY id, ord) t ON a.id = t.id
    WHERE CASE WHEN t.guard_token IS NOT NULL
      THEN a.claim_token = t.guard_token AND a.status = 'IN_PROGRESS'
        AND a.cancel_requested_at IS NOT DISTINCT FROM t.seen_cancel_requested_at
      ELSE ${revisionGuardSql('a', 't.guard_revision', "string_to_array(t.guard_statuses, ',')", 't.guard_due_after')}
    END
    -- Rows are locked in id order, so batches running side by side cannot deadlock.
    ORDER BY a.id FOR UPDATE OF a
  ), changed AS (
    UPDATE actions a SET
           ${SET_CHANGED_FIELDS},
           finished_at = CASE WHEN t.changed & ${BIT.status} <> 0 THEN CASE WHEN t.finished THEN now() END ELSE a.finished_at END,
           claim_token = CASE WHEN t.status = 'IN_PROGRESS' THEN a.claim_token END,
           claimed_until = CASE WHEN t.status = 'IN_PROGRESS' THEN a.claimed_until END,
           updated_at = clock_timestamp()
    FROM locked t WHERE a.id = t.id
    RETURNING a.*, t.ord, t.guard_token, t.entry_from, t.entry_to, t.entry_occurrence, t.entry_attempt, t.entry_note,
      t.notice_type, t.notice_occurrence, t.notice_attempt, t.notice_note
  ), history AS (
    INSERT INTO action_history (action_id, occurrence, from_status, to_status, attempt, note, at)
    SELECT id, entry_occurrence, entry_from, entry_to, entry_attempt, entry_note, clock_timestamp() FROM changed
  ), notices AS (
    ${outboxInsertSql('changed', WRITE_EXTRA_COLUMNS)}
  )
  SELECT ord, finished_at, claim_token, claimed_until, updated_at,
    CASE WHEN guard_token IS NULL THEN to_jsonb(c) - ARRAY[${[...WRITE_EXTRA_COLUMNS, 'notice_type', 'notice_occurrence', 'notice_attempt', 'notice_note'].map((c) => `'${c}'`).join(', ')}] END AS row_json
  FROM changed c`;

/** Deletes an action under a revision guard. */
const DELETE_SQL = `DELETE FROM actions a WHERE a.id = $1 AND ${revisionGuardSql('a', '$2::integer', '$3::varchar[]', '$4::timestamptz')}`;

/** What the statement answers for each row it wrote. */
interface WrittenRow {
  ord: number;
  finished_at: Date | null;
  claim_token: string | null;
  claimed_until: Date | null;
  updated_at: Date;
  row_json: Record<string, unknown> | null;
}

/**
 * The one writer of an action's lifecycle state after its creation and its claim: every
 * transition the lifecycle computes (an attempt's outcome, a client's change, the promoter's
 * NO_ACTION) is persisted here, under its guard. Concurrent writes share one statement (GroupCommit).
 */
@Injectable()
export class LifecycleStore {
  private readonly writes = new GroupCommit<Write, ActionEntity | null>((writes) => this.writeMany(writes));

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Writes `transition` if `guard` still holds; the action as written, or null when the row moved
   * on first. A transition that changes nothing writes nothing and answers the action as it was.
   */
  persist(transition: Transition<ActionEntity>, guard: TransitionGuard): Promise<ActionEntity | null> {
    if (transition.history.length === 0) return Promise.resolve(transition.before);
    if (transition.history.length > 1) throw new Error('A transition writes at most one history entry');
    if (guard.kind === 'claim' && !transition.before.claimToken) throw new Error('An outcome is written only under the claim it was computed with');
    const changed = changedFields(transition.before, transition.after).reduce((mask, field) => mask | BIT[field], 0);
    return this.writes.submit({ transition, guard, changed, ord: 0 });
  }

  /** Deletes the action if it is still at the revision read and `guard` holds; whether it went. */
  async delete(action: ActionEntity, guard: UnlockedGuard): Promise<boolean> {
    const [, deleted]: [unknown, number] = await this.dataSource.query(DELETE_SQL, [action.id, action.revision, guard.statuses, guard.dueAfter ?? null]);
    return deleted === 1;
  }

  private async writeMany(writes: Write[]): Promise<(ActionEntity | null)[]> {
    writes.forEach((write, ord) => (write.ord = ord));
    const rows = await preparedQuery<WrittenRow>(this.dataSource, 'punctual_write_transitions', WRITE_TRANSITIONS_SQL, WRITE_COLUMNS.values(writes));
    const metadata = this.dataSource.getMetadata(ActionEntity);
    const byOrd = new Map(rows.map((row) => [row.ord, row]));
    return writes.map(({ transition }, ord) => {
      const row = byOrd.get(ord);
      if (!row) return null;
      return row.row_json ? hydrateJson<ActionEntity>(metadata, row.row_json) : writtenAction(blankEntity<ActionEntity>(metadata), transition, row);
    });
  }
}

/** The action as an outcome left it, without reading it back: the transition's state and what Postgres filled in. */
function writtenAction(entity: ActionEntity, { after }: Transition<ActionEntity>, row: WrittenRow): ActionEntity {
  Object.assign(entity, after);
  entity.finishedAt = row.finished_at;
  entity.claimToken = row.claim_token;
  entity.claimedUntil = row.claimed_until;
  entity.updatedAt = row.updated_at;
  return entity;
}
