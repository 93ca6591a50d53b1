import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ActionStatus } from '../entities/action-status';
import { ActionEntity } from '../entities/action.entity';
import { HistoryRepository } from './history.repository';
import { hydrate } from './hydrate';

/** Where an occurrence goes after a successful attempt. */
export type AfterSuccess =
  | { kind: 'completed' }
  | { kind: 'next-occurrence'; executionTime: Date; catchUpNote?: string };

/** Where an occurrence goes after a failed attempt. */
export type AfterFailure = { kind: 'retry'; dueAt: Date } | { kind: 'failed' };

/**
 * The worker's state changes. Each is one conditional statement (plus its history entry in
 * the same transaction), so two workers racing for one occurrence resolve in Postgres.
 */
@Injectable()
export class ExecutionRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly history: HistoryRepository,
  ) {}

  /**
   * PENDING → IN_PROGRESS for exactly this revision. Also takes over an IN_PROGRESS claim
   * older than `staleBefore`: its worker died mid-run and the queue re-delivered the job.
   * Returns null when someone else has it, or the job is stale.
   */
  async claim(id: string, revision: number, staleBefore: Date): Promise<{ action: ActionEntity; takenOver: boolean } | null> {
    return this.dataSource.transaction(async (manager) => {
      const [rows]: [Record<string, unknown>[]] = await manager.query(
        `UPDATE actions SET status = 'IN_PROGRESS', updated_at = clock_timestamp()
         WHERE id = $1 AND revision = $2
           AND (status = 'PENDING' OR (status = 'IN_PROGRESS' AND updated_at < $3))
         RETURNING *, (SELECT status FROM actions WHERE id = $1) AS previous_status`, // subquery sees the row before the update
        [id, revision, staleBefore],
      );
      if (rows.length === 0) return null;
      const action = hydrate<ActionEntity>(manager.connection.getMetadata(ActionEntity), rows[0]);
      const takenOver = rows[0].previous_status === ActionStatus.InProgress;
      await this.history.append(manager, [
        {
          action,
          from: takenOver ? ActionStatus.InProgress : ActionStatus.Pending,
          to: ActionStatus.InProgress,
          attempt: action.retryCount + 1,
          note: takenOver ? 'previous attempt was interrupted (worker lost); running it again' : null,
        },
      ]);
      return { action, takenOver };
    });
  }

  /** IN_PROGRESS → COMPLETED, or → PENDING for the next occurrence of a repeating action. */
  async recordSuccess(action: ActionEntity, note: string | null, next: AfterSuccess): Promise<ActionEntity | null> {
    const attempt = action.retryCount + 1;
    if (next.kind === 'completed') {
      return this.transition(action, ActionStatus.Completed, attempt, note, {
        sql: `status = 'COMPLETED', retry_count = 0, last_error = NULL, finished_at = now(),
              execution_remainder = CASE WHEN repeat THEN 0 ELSE execution_remainder END`,
        params: [],
      });
    }
    const fullNote = [note, next.catchUpNote].filter(Boolean).join('; ') || null;
    return this.transition(action, ActionStatus.Pending, attempt, fullNote, {
      sql: `status = 'PENDING', retry_count = 0, last_error = NULL, occurrence = occurrence + 1,
            execution_remainder = execution_remainder - 1, execution_time = $P1, next_attempt_at = $P1,
            revision = revision + 1`,
      params: [next.executionTime],
    });
  }

  /** IN_PROGRESS → PENDING (retry after a delay, same occurrence) or → FAILED. */
  async recordFailure(action: ActionEntity, error: string, next: AfterFailure): Promise<ActionEntity | null> {
    const attempt = action.retryCount + 1;
    if (next.kind === 'failed') {
      return this.transition(action, ActionStatus.Failed, attempt, error, {
        sql: `status = 'FAILED', retry_count = retry_count + 1, last_error = $P1, finished_at = now()`,
        params: [error],
      });
    }
    return this.transition(action, ActionStatus.Pending, attempt, error, {
      sql: `status = 'PENDING', retry_count = retry_count + 1, last_error = $P1, next_attempt_at = $P2, revision = revision + 1`,
      params: [error, next.dueAt],
    });
  }

  /** IN_PROGRESS → NO_ACTION: no fulfillment exists for the type; visible, and not retried. */
  async recordNoAction(action: ActionEntity, note: string): Promise<ActionEntity | null> {
    return this.transition(action, ActionStatus.NoAction, action.retryCount + 1, note, {
      sql: `status = 'NO_ACTION', last_error = $P1, finished_at = now()`,
      params: [note],
    });
  }

  /**
   * One conditional update from IN_PROGRESS of this revision, plus its history entry. `$P1…`
   * in `change.sql` are the change's own parameters, numbered after the fixed ones.
   */
  private async transition(
    action: ActionEntity,
    to: ActionStatus,
    attempt: number,
    note: string | null,
    change: { sql: string; params: unknown[] },
  ): Promise<ActionEntity | null> {
    const fixed = [action.id, action.revision];
    const sql = change.sql.replace(/\$P(\d)/g, (_, n: string) => `$${fixed.length + Number(n)}`);
    return this.dataSource.transaction(async (manager) => {
      const [rows] = await manager.query(
        `UPDATE actions SET ${sql}, updated_at = clock_timestamp()
         WHERE id = $1 AND revision = $2 AND status = 'IN_PROGRESS' RETURNING *`,
        [...fixed, ...change.params],
      );
      if (rows.length === 0) return null;
      // History records the occurrence that ran, not the one that comes next.
      await this.history.append(manager, [{ action, from: ActionStatus.InProgress, to, attempt, note }]);
      return hydrate<ActionEntity>(manager.connection.getMetadata(ActionEntity), rows[0]);
    });
  }
}
