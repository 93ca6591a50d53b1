import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ActionHistoryEntity } from '../entities/action-history.entity';
import { ActionStatus } from '../entities/action-status';
import { ActionEntity } from '../entities/action.entity';

export interface HistoryEntry {
  action: Pick<ActionEntity, 'id' | 'occurrence'>;
  from: ActionStatus | null;
  to: ActionStatus;
  attempt: number;
  note: string | null;
}

/** SQL expressions for one history entry per row of a source; each is evaluated against that row. */
export interface HistoryColumnsSql {
  occurrence: string;
  from: string;
  to: string;
  attempt: string;
  note: string;
}

/**
 * An `INSERT` appending one entry per row of `source` (a CTE of the same statement, with an
 * `id` column), so that a state change and its history are written by one atomic statement.
 */
export function appendHistorySql(source: string, columns: HistoryColumnsSql): string {
  return `INSERT INTO action_history (action_id, occurrence, from_status, to_status, attempt, note, at)
    SELECT id, ${columns.occurrence}, ${columns.from}, ${columns.to}, ${columns.attempt}, ${columns.note}, clock_timestamp() FROM ${source}`;
}

/** The append-only lifecycle log of actions. */
@Injectable()
export class HistoryRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Appends entries inside the caller's transaction, so history and state commit together. */
  async append(manager: EntityManager, entries: HistoryEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const rows = entries.map((e) => ({
      actionId: e.action.id,
      occurrence: e.action.occurrence,
      from: e.from,
      to: e.to,
      attempt: e.attempt,
      note: e.note,
      at: () => 'clock_timestamp()',
    }));
    for (let i = 0; i < rows.length; i += 1000) {
      await manager.createQueryBuilder().insert().into(ActionHistoryEntity).values(rows.slice(i, i + 1000)).execute();
    }
  }

  /** The action's entries, oldest first. */
  forAction(actionId: string): Promise<ActionHistoryEntity[]> {
    return this.dataSource.getRepository(ActionHistoryEntity).find({ where: { actionId }, order: { id: 'ASC' } });
  }
}
