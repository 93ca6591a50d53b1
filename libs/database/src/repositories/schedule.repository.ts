import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { TransactionLock } from '../advisory-lock';
import { ActionEntity } from '../entities/action.entity';
import { PromotionWindow, ScheduleStorePort } from '../ports/schedule-store.port';
import { HELD_BY_PAUSE, ofUnknownTypeAt, overdueBefore } from './action-predicates';
import { hydrate } from './hydrate';
import { WorkersRepository } from './workers.repository';

/** Advisory-lock key: only one instance promotes or sweeps at a time. */
const PROMOTER_LOCK = 0x70756e63; // "punc"

/** The columns a job needs, and whether a pause holds it: what ActionQueues.enqueue takes. */
export type QueueableAction = Pick<
  ActionEntity,
  'id' | 'tenantId' | 'action' | 'status' | 'occurrence' | 'retryCount' | 'revision' | 'nextAttemptAt' | 'pausedFrom'
>;

const QUEUEABLE = 'id, tenant_id, action, status, occurrence, retry_count, revision, next_attempt_at, paused_from';

/** Reads for moving PENDING actions from Postgres into the queues: the promoter's `SCHEDULE_STORE`. */
@Injectable()
export class ScheduleRepository implements ScheduleStorePort {
  /** The promoter's lock, per transaction: a tick's reads and writes here run in a transaction holding it. */
  readonly lock: TransactionLock;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly workers: WorkersRepository,
  ) {
    this.lock = new TransactionLock(dataSource, PROMOTER_LOCK);
  }

  /** The watermark and the database's clock, read together under the lock. */
  async promotionWindow(manager: EntityManager, horizonMs: number): Promise<PromotionWindow> {
    const [row]: PromotionWindow[] = await manager.query(
      `SELECT promoted_until AS from, now() + ($1 || ' milliseconds')::interval AS until, now() AS now
       FROM scheduler_state WHERE id = 1 FOR UPDATE`,
      [horizonMs],
    );
    return row;
  }

  /**
   * One batch of PENDING actions due in [from, until), in (next_attempt_at, id) order, after the
   * keyset position `after` when given.
   */
  async pendingBetween(
    manager: EntityManager,
    window: { from: Date; until: Date },
    limit: number,
    after?: { nextAttemptAt: Date; id: string },
  ): Promise<QueueableAction[]> {
    const rows: Record<string, unknown>[] = await manager.query(
      `SELECT ${QUEUEABLE} FROM actions
       WHERE status = 'PENDING' AND next_attempt_at >= $1 AND next_attempt_at < $2 AND NOT ${HELD_BY_PAUSE}
         AND ($4::timestamptz IS NULL OR (next_attempt_at, id) > ($4, $5::uuid))
       ORDER BY next_attempt_at, id LIMIT $3`,
      [window.from, window.until, limit, after?.nextAttemptAt ?? null, after?.id ?? null],
    );
    return rows.map((row) => hydrate<ActionEntity>(manager.dataSource.getMetadata(ActionEntity), row));
  }

  async advanceWatermark(manager: EntityManager, until: Date): Promise<void> {
    await manager.query(`UPDATE scheduler_state SET promoted_until = $1 WHERE id = 1`, [until]);
  }

  /** Forget what was promoted: everything PENDING within the horizon is queued again (Redis lost its data). */
  async resetWatermark(manager: EntityManager): Promise<void> {
    await manager.query(`UPDATE scheduler_state SET promoted_until = '-infinity' WHERE id = 1`);
  }

  /**
   * Due PENDING actions, not held by a pause, that have been due for `graceMs` during which no live
   * worker knew their type (a type removed from the code, a row edited by hand): the lifecycle ends
   * them as NO_ACTION. Judged over every worker's declaration, never by one process's registry.
   */
  async dueOfUnknownType(manager: EntityManager, graceMs: number, limit: number): Promise<ActionEntity[]> {
    const rows: Record<string, unknown>[] = await manager.query(
      `SELECT * FROM actions WHERE ${ofUnknownTypeAt('now()', '$1')} ORDER BY next_attempt_at, id LIMIT $2`,
      [graceMs, limit],
    );
    return rows.map((row) => hydrate<ActionEntity>(manager.dataSource.getMetadata(ActionEntity), row));
  }

  /**
   * Actions whose job may have been lost, of the given types, in keyset order after `after` so
   * that successive sweeps walk the whole set: PENDING and overdue by more than `graceMs`, or
   * IN_PROGRESS with a claim that lapsed more than `graceMs` ago (its worker died and no job
   * came to take it over).
   */
  async overdue(
    manager: EntityManager,
    types: readonly string[],
    graceMs: number,
    limit: number,
    after?: { nextAttemptAt: Date; id: string },
  ): Promise<QueueableAction[]> {
    const rows: Record<string, unknown>[] = await manager.query(
      `(SELECT ${QUEUEABLE} FROM actions WHERE ${overdueBefore(`now() - $1 * interval '1 millisecond'`)} AND action = ANY($2) AND ($4::timestamptz IS NULL OR (next_attempt_at, id) > ($4, $5::uuid))
        ORDER BY next_attempt_at, id LIMIT $3)
       UNION ALL
       (SELECT ${QUEUEABLE} FROM actions WHERE status = 'IN_PROGRESS' AND claimed_until < now() - $1 * interval '1 millisecond'
          AND action = ANY($2)
        ORDER BY claimed_until LIMIT $3)`,
      [graceMs, types, limit, after?.nextAttemptAt ?? null, after?.id ?? null],
    );
    return rows.map((row) => hydrate<ActionEntity>(manager.dataSource.getMetadata(ActionEntity), row));
  }

  /** The types some live worker serves, from the workers' declarations. */
  servedTypes(manager: EntityManager): Promise<string[]> {
    return this.workers.servedTypes(manager);
  }
}
