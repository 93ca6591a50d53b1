import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ActionEntity } from '../entities/action.entity';
import { overdueBefore } from './action-predicates';
import { hydrate } from './hydrate';
import { TenantScope, ownedBy, tenantCondition } from './tenant-scope';

/** What happened in one minute: attempts ended by outcome, and the firing lag of the attempts started. */
export interface MinuteActivity {
  /** Start of the minute. */
  minute: Date;
  succeeded: number;
  failed: number;
  noAction: number;
  /** Attempts started (claims) in the minute; the lag percentiles are over these. */
  started: number;
  /** Median and 99th percentile of claim time − due time, in ms; null when nothing started. */
  lagP50Ms: number | null;
  lagP99Ms: number | null;
}

export interface OverdueActions {
  /** PENDING actions whose next attempt was due before the cut-off. */
  count: number;
  /** The most overdue of them, oldest due first. */
  oldest: ActionEntity[];
}

/**
 * Attempts and their lag, minute by minute, from the history alone (a range of
 * `idx_action_history_at`): each entry that ended an attempt records its outcome, and each claim
 * when its attempt was due. Limited to one tenant (`$3`), each entry in the range costs one probe
 * of the action's primary key: the history does not name the tenant.
 */
const minutesSql = (tenantFilter: string) => `
WITH recent AS MATERIALIZED (
  SELECT h.at, h.event, h.outcome, h.due_at
  FROM action_history h
  WHERE h.at >= date_trunc('minute', $1::timestamptz) AND h.at < $2
    AND (h.outcome IS NOT NULL OR h.event = 'claimed')
    ${tenantFilter}
), by_outcome AS (
  SELECT date_trunc('minute', at) AS minute, count(*) FILTER (WHERE outcome = 'succeeded') AS succeeded,
         count(*) FILTER (WHERE outcome = 'failed') AS failed, count(*) FILTER (WHERE outcome = 'no_action') AS no_action
  FROM recent WHERE outcome IS NOT NULL GROUP BY 1
), lags AS (
  SELECT date_trunc('minute', at) AS minute, count(*) AS started,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM at - due_at)) * 1000 AS p50,
         percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM at - due_at)) * 1000 AS p99
  FROM recent WHERE event = 'claimed' AND due_at IS NOT NULL
  GROUP BY 1
)
SELECT m.minute, COALESCE(o.succeeded, 0) AS succeeded, COALESCE(o.failed, 0) AS failed, COALESCE(o.no_action, 0) AS no_action,
       COALESCE(l.started, 0) AS started, l.p50, l.p99
FROM generate_series(date_trunc('minute', $1::timestamptz), $2::timestamptz - interval '1 millisecond', interval '1 minute') AS m(minute)
LEFT JOIN by_outcome o USING (minute)
LEFT JOIN lags l USING (minute)
ORDER BY m.minute`;

const EVERY_TENANT_MINUTES_SQL = minutesSql('');
const TENANT_MINUTES_SQL = minutesSql('AND EXISTS (SELECT 1 FROM actions a WHERE a.id = h.action_id AND a.tenant_id = $3)');

/** Read-only figures about recent work, for operators: what ran, how it ended, how late it started, what is overdue. */
@Injectable()
export class ActivityRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** One entry per minute of the scope's actions, from the whole minute `since` falls in up to `until` (exclusive), zero-filled. */
  async perMinute(scope: TenantScope, since: Date, until: Date): Promise<MinuteActivity[]> {
    const tenant = ownedBy(scope);
    const rows: Record<string, string | Date | null>[] =
      tenant === null
        ? await this.dataSource.query(EVERY_TENANT_MINUTES_SQL, [since, until])
        : await this.dataSource.query(TENANT_MINUTES_SQL, [since, until, tenant]);
    return rows.map((row) => ({
      minute: row.minute as Date,
      succeeded: Number(row.succeeded),
      failed: Number(row.failed),
      noAction: Number(row.no_action),
      started: Number(row.started),
      lagP50Ms: row.p50 === null ? null : Math.round(Number(row.p50)),
      lagP99Ms: row.p99 === null ? null : Math.round(Number(row.p99)),
    }));
  }

  /** The scope's PENDING actions due before `dueBefore` that have not started and are not held by a pause: their count and the `limit` most overdue. */
  async overdue(scope: TenantScope, dueBefore: Date, limit: number): Promise<OverdueActions> {
    // Both read the partial index idx_actions_due (PENDING rows by next_attempt_at).
    const overdue = `${overdueBefore('$1')} AND ${tenantCondition(scope, 'tenant_id', 2)}`;
    const [{ count }]: { count: string }[] = await this.dataSource.query(`SELECT count(*) AS count FROM actions WHERE ${overdue}`, [
      dueBefore,
      ownedBy(scope),
    ]);
    const rows: Record<string, unknown>[] = await this.dataSource.query(`SELECT * FROM actions WHERE ${overdue} ORDER BY next_attempt_at, id LIMIT $3`, [
      dueBefore,
      ownedBy(scope),
      limit,
    ]);
    const metadata = this.dataSource.getMetadata(ActionEntity);
    return { count: Number(count), oldest: rows.map((row) => hydrate<ActionEntity>(metadata, row)) };
  }
}
