import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ActionStatus } from '../entities/action-status';
import { ActionEntity } from '../entities/action.entity';
import { GroupCommit } from './group-commit';
import { appendHistorySql } from './history.repository';
import { hydrate } from './hydrate';
import { preparedQuery } from './prepared-query';
import { UnnestColumns } from './unnest-columns';

/** Where an occurrence goes after a successful attempt. */
export type AfterSuccess =
  | { kind: 'completed' }
  | { kind: 'next-occurrence'; executionTime: Date; catchUpNote?: string };

/** Where an occurrence goes after a failed attempt. */
export type AfterFailure = { kind: 'retry'; dueAt: Date } | { kind: 'failed' };

/** A claimed occurrence, and whether it was taken over from a worker that died mid-run. */
export interface Claimed {
  action: ActionEntity;
  takenOver: boolean;
}

interface ClaimRequest {
  id: string;
  revision: number;
  staleBefore: Date;
}

/** The columns an attempt's outcome sets, computed from the claimed row. */
interface TargetState {
  status: ActionStatus;
  retryCount: number;
  lastError: string | null;
  finished: boolean;
  occurrence: number;
  executionRemainder: number | null;
  executionTime: Date;
  nextAttemptAt: Date;
  revision: number;
}

interface Transition {
  action: ActionEntity;
  target: TargetState;
  note: string | null;
}

const CLAIM_COLUMNS = new UnnestColumns<ClaimRequest>([
  ['id', 'uuid', (r) => r.id],
  ['revision', 'integer', (r) => r.revision],
  ['stale_before', 'timestamptz', (r) => r.staleBefore],
]);

/** A transition's new column values, and the occurrence and attempt that ran, for its history entry. */
const TRANSITION_COLUMNS = new UnnestColumns<Transition>([
  ['id', 'uuid', (c) => c.action.id],
  ['from_revision', 'integer', (c) => c.action.revision],
  ['status', 'varchar', (c) => c.target.status],
  ['retry_count', 'integer', (c) => c.target.retryCount],
  ['last_error', 'text', (c) => c.target.lastError],
  ['finished', 'boolean', (c) => c.target.finished],
  ['occurrence', 'integer', (c) => c.target.occurrence],
  ['execution_remainder', 'integer', (c) => c.target.executionRemainder],
  ['execution_time', 'timestamptz', (c) => c.target.executionTime],
  ['next_attempt_at', 'timestamptz', (c) => c.target.nextAttemptAt],
  ['revision', 'integer', (c) => c.target.revision],
  ['ran_occurrence', 'integer', (c) => c.action.occurrence],
  ['ran_attempt', 'integer', (c) => c.action.retryCount + 1],
  ['note', 'text', (c) => c.note],
]);

const TAKEN_OVER_NOTE = 'previous attempt was interrupted (worker lost); running it again';

/**
 * The worker's state changes. Each is one conditional statement that writes the row and its
 * history entry together, so two workers racing for one occurrence resolve in Postgres.
 * Concurrent jobs share statements (GroupCommit): rows are locked in id order, so batches
 * running side by side on several workers cannot deadlock.
 */
@Injectable()
export class ExecutionRepository {
  private readonly claims = new GroupCommit<ClaimRequest, Claimed | null>((requests) => this.claimMany(requests));
  private readonly transitions = new GroupCommit<Transition, ActionEntity | null>((changes) => this.transitionMany(changes));

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * PENDING → IN_PROGRESS for exactly this revision. Also takes over an IN_PROGRESS claim
   * older than `staleBefore`: its worker died mid-run and the queue re-delivered the job.
   * Returns null when someone else has it, or the job is stale.
   */
  claim(id: string, revision: number, staleBefore: Date): Promise<Claimed | null> {
    return this.claims.submit({ id, revision, staleBefore });
  }

  /** IN_PROGRESS → COMPLETED, or → PENDING for the next occurrence of a repeating action. */
  recordSuccess(action: ActionEntity, note: string | null, next: AfterSuccess): Promise<ActionEntity | null> {
    const base = { ...stateOf(action), retryCount: 0, lastError: null };
    if (next.kind === 'completed') {
      const executionRemainder = action.repeat ? 0 : action.executionRemainder;
      return this.transitions.submit({ action, note, target: { ...base, status: ActionStatus.Completed, finished: true, executionRemainder } });
    }
    const target: TargetState = {
      ...base,
      status: ActionStatus.Pending,
      occurrence: action.occurrence + 1,
      executionRemainder: action.executionRemainder === null ? null : action.executionRemainder - 1,
      executionTime: next.executionTime,
      nextAttemptAt: next.executionTime,
      revision: action.revision + 1,
    };
    return this.transitions.submit({ action, target, note: [note, next.catchUpNote].filter(Boolean).join('; ') || null });
  }

  /** IN_PROGRESS → PENDING (retry after a delay, same occurrence) or → FAILED. */
  recordFailure(action: ActionEntity, error: string, next: AfterFailure): Promise<ActionEntity | null> {
    const base = { ...stateOf(action), retryCount: action.retryCount + 1, lastError: error };
    const target: TargetState =
      next.kind === 'failed'
        ? { ...base, status: ActionStatus.Failed, finished: true }
        : { ...base, status: ActionStatus.Pending, nextAttemptAt: next.dueAt, revision: action.revision + 1 };
    return this.transitions.submit({ action, target, note: error });
  }

  /** IN_PROGRESS → NO_ACTION: no fulfillment exists for the type; visible, and not retried. */
  recordNoAction(action: ActionEntity, note: string): Promise<ActionEntity | null> {
    return this.transitions.submit({ action, note, target: { ...stateOf(action), status: ActionStatus.NoAction, lastError: note, finished: true } });
  }

  private async claimMany(requests: ClaimRequest[]): Promise<(Claimed | null)[]> {
    const rows = await preparedQuery(
      this.dataSource,
      'punctual_claim',
      `WITH requested AS (
         SELECT * FROM ${CLAIM_COLUMNS.rows('r')}
       ), claimable AS (
         SELECT a.id, a.status AS previous_status FROM actions a JOIN requested r ON a.id = r.id AND a.revision = r.revision
         WHERE a.status = 'PENDING' OR (a.status = 'IN_PROGRESS' AND a.updated_at < r.stale_before)
         ORDER BY a.id FOR UPDATE OF a
       ), claimed AS (
         UPDATE actions a SET status = 'IN_PROGRESS', updated_at = clock_timestamp()
         FROM (SELECT DISTINCT id, previous_status FROM claimable) c WHERE a.id = c.id
         RETURNING a.*, c.previous_status
       ), history AS (
         ${appendHistorySql('claimed', {
           occurrence: 'occurrence',
           from: 'previous_status',
           to: `'IN_PROGRESS'`,
           attempt: 'retry_count + 1',
           note: `CASE WHEN previous_status = 'IN_PROGRESS' THEN '${TAKEN_OVER_NOTE}' END`,
         })}
       )
       SELECT * FROM claimed`,
      CLAIM_COLUMNS.values(requests),
    );
    const metadata = this.dataSource.getMetadata(ActionEntity);
    const byKey = new Map(rows.map((row) => [`${row.id}/${row.revision}`, row]));
    return requests.map((request) => {
      // A job queued twice in one batch claims once: the first request takes the row.
      const key = `${request.id}/${request.revision}`;
      const row = byKey.get(key);
      if (!row) return null;
      byKey.delete(key);
      return { action: hydrate<ActionEntity>(metadata, row), takenOver: row.previous_status === ActionStatus.InProgress };
    });
  }

  /** Applies each outcome if its row is still the claimed revision IN_PROGRESS; history records the occurrence that ran. */
  private async transitionMany(changes: Transition[]): Promise<(ActionEntity | null)[]> {
    const rows = await preparedQuery(
      this.dataSource,
      'punctual_transition',
      `WITH target AS (
         SELECT * FROM ${TRANSITION_COLUMNS.rows('t')}
       ), locked AS (
         SELECT t.* FROM actions a JOIN target t ON a.id = t.id AND a.revision = t.from_revision
         WHERE a.status = 'IN_PROGRESS' ORDER BY a.id FOR UPDATE OF a
       ), changed AS (
         UPDATE actions a SET status = t.status, retry_count = t.retry_count, last_error = t.last_error,
           finished_at = CASE WHEN t.finished THEN now() END, occurrence = t.occurrence,
           execution_remainder = t.execution_remainder, execution_time = t.execution_time,
           next_attempt_at = t.next_attempt_at, revision = t.revision, updated_at = clock_timestamp()
         FROM locked t WHERE a.id = t.id
         RETURNING a.*, t.ran_occurrence, t.ran_attempt, t.note
       ), history AS (
         ${appendHistorySql('changed', { occurrence: 'ran_occurrence', from: `'IN_PROGRESS'`, to: 'status', attempt: 'ran_attempt', note: 'note' })}
       )
       SELECT * FROM changed`,
      TRANSITION_COLUMNS.values(changes),
    );
    const metadata = this.dataSource.getMetadata(ActionEntity);
    const byId = new Map(rows.map((row) => [row.id as string, row]));
    return changes.map((change) => {
      const row = byId.get(change.action.id);
      byId.delete(change.action.id);
      return row ? hydrate<ActionEntity>(metadata, row) : null;
    });
  }
}

/** The claimed row's columns as they stand; each outcome overrides what it changes. */
function stateOf(action: ActionEntity): TargetState {
  return {
    status: action.status,
    retryCount: action.retryCount,
    lastError: action.lastError,
    finished: false,
    occurrence: action.occurrence,
    executionRemainder: action.executionRemainder,
    executionTime: action.executionTime,
    nextAttemptAt: action.nextAttemptAt,
    revision: action.revision,
  };
}
