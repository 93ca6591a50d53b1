import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ActionHistoryEntity } from '../entities/action-history.entity';
import { ActionStatus } from '@app/domain';
import { preparedQuery } from './prepared-query';
import { TenantScope, ownedBy } from './tenant-scope';

const HISTORY_PAGE_SQL = `SELECT id, (at AT TIME ZONE 'UTC')::text AS at_utc, (due_at AT TIME ZONE 'UTC')::text AS due_at_utc, from_status, to_status, occurrence, attempt, note
  FROM action_history WHERE action_id = $1 AND id > $2
    AND EXISTS (SELECT 1 FROM actions WHERE id = $1 AND ($4::varchar IS NULL OR tenant_id = $4))
  ORDER BY id LIMIT $3`;

/** A history entry as read for a client; `at` is ISO-8601 UTC with milliseconds, as `Date.toISOString` writes it. */
export interface HistoryRecord extends Pick<ActionHistoryEntity, 'id' | 'from' | 'to' | 'occurrence' | 'attempt' | 'note'> {
  at: string;
  /** For a claim: when the attempt was due, so the entry tells its firing lag. */
  dueAt: string | null;
}

interface HistoryPageRow {
  id: string;
  at_utc: string;
  due_at_utc: string | null;
  from_status: ActionStatus | null;
  to_status: ActionStatus;
  occurrence: number;
  attempt: number;
  note: string | null;
}

/** The append-only lifecycle log of actions. */
@Injectable()
export class HistoryRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Up to `limit` of the action's entries, oldest first, after the entry `afterId` when given;
   * none when `scope` may not see the action
   * (keyset on `idx_action_history_action`). A page may hold a thousand entries, so the statement
   * is prepared once per connection and `at` comes as UTC text, turned into ISO-8601 by string
   * slicing: the driver's timestamptz parser and Date.toISOString took most of such a read.
   */
  async page(actionId: string, scope: TenantScope, limit: number, afterId = '0'): Promise<HistoryRecord[]> {
    const params = [actionId, afterId, limit, ownedBy(scope)];
    const rows = await preparedQuery<HistoryPageRow>(this.dataSource, 'punctual_history_page', HISTORY_PAGE_SQL, params);
    return rows.map((row) => ({
      id: row.id,
      at: isoFromUtcText(row.at_utc),
      dueAt: row.due_at_utc === null ? null : isoFromUtcText(row.due_at_utc),
      from: row.from_status,
      to: row.to_status,
      occurrence: row.occurrence,
      attempt: row.attempt,
      note: row.note,
    }));
  }
}

/** `2025-01-15 08:35:17.12` (Postgres's text of a UTC timestamp, trailing zeros trimmed) → `2025-01-15T08:35:17.120Z`. */
function isoFromUtcText(text: string): string {
  const milliseconds = text.length > 20 ? text.slice(20, 23).padEnd(3, '0') : '000';
  return `${text.slice(0, 10)}T${text.slice(11, 19)}.${milliseconds}Z`;
}
