import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CalendarDates } from '@app/domain';
import { TenantScope, ownedBy, tenantCondition } from './tenant-scope';

/** A calendar as stored: its dates as `YYYY-MM-DD`, in order. */
export interface CalendarRecord {
  tenantId: string;
  name: string;
  dates: string[];
  description: string | null;
  updatedAt: Date;
}

/** A calendar's place in the order of a list of calendars: by name, then tenant. */
export interface CalendarPosition {
  name: string;
  tenantId: string;
}

/** A calendar's place in a list, with how many dates it holds. */
export interface CalendarHead extends CalendarPosition {
  dateCount: number;
}

/** What deleting a calendar came to: refused while an action names it (`namedBy` of them). */
export type CalendarDeletion = { kind: 'deleted' } | { kind: 'missing' } | { kind: 'in-use'; namedBy: number };

// Dates travel as text (the driver would turn a `date` into a Date at local midnight), in one JSON
// array: the driver parses that natively, many times faster than a Postgres text array.
const CALENDAR = `c.tenant_id AS "tenantId", c.name, c.description, c.updated_at AS "updatedAt",
  coalesce((SELECT json_agg(to_char(d.day, 'YYYY-MM-DD') ORDER BY d.day) FROM calendar_dates d WHERE d.tenant_id = c.tenant_id AND d.calendar = c.name), '[]') AS dates`;

/** The foreign key from an action to its calendar (see the holiday-calendars migration). */
const ACTION_CALENDAR_KEY = 'actions_calendar_fkey';

/** Calendars: named sets of dates that the schedules naming them skip, each one tenant's. */
@Injectable()
export class CalendarsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Creates the tenant's calendar, unless it already has `maxPerTenant` of them, or replaces the
   * dates and description of one it has; null when refused, with nothing written. A lock on the
   * tenant serializes its puts, so creates arriving together are counted one after the other and
   * never pass the limit between them. Actions are not touched (the claim reads the dates when an
   * occurrence comes due), so the cost does not grow with the actions that use it.
   */
  async put(tenant: string, name: string, dates: readonly string[], description: string | null, maxPerTenant: number): Promise<CalendarRecord | null> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('calendars:' || $1))`, [tenant]);
      const stored: unknown[] = await manager.query(
        `INSERT INTO calendars (tenant_id, name, description)
         SELECT $1::varchar, $2::varchar, $3::varchar
         WHERE EXISTS (SELECT 1 FROM calendars WHERE tenant_id = $1 AND name = $2) OR (SELECT count(*) FROM calendars WHERE tenant_id = $1) < $4
         ON CONFLICT (tenant_id, name) DO UPDATE SET description = EXCLUDED.description, updated_at = clock_timestamp()
         RETURNING 1`,
        [tenant, name, description, maxPerTenant],
      );
      if (stored.length === 0) return null;
      await manager.query(`DELETE FROM calendar_dates WHERE tenant_id = $1 AND calendar = $2 AND day <> ALL($3::date[])`, [tenant, name, dates]);
      await manager.query(`INSERT INTO calendar_dates (tenant_id, calendar, day) SELECT $1, $2, unnest($3::date[]) ON CONFLICT DO NOTHING`, [
        tenant,
        name,
        dates,
      ]);
      const [calendar]: CalendarRecord[] = await manager.query(`SELECT ${CALENDAR} FROM calendars c WHERE c.tenant_id = $1 AND c.name = $2`, [
        tenant,
        name,
      ]);
      return calendar;
    });
  }

  async find(scope: TenantScope, name: string): Promise<CalendarRecord | null> {
    const [calendar]: CalendarRecord[] = await this.dataSource.query(
      `SELECT ${CALENDAR} FROM calendars c WHERE ${tenantCondition(scope, 'c.tenant_id', 1)} AND c.name = $2 ORDER BY c.tenant_id LIMIT 1`,
      [ownedBy(scope), name],
    );
    return calendar ?? null;
  }

  /**
   * Where up to `limit` calendars `scope` may see stand, by name then tenant, after `after` when
   * given, each with the number of its dates: what a page is cut from before its dates are read.
   */
  heads(scope: TenantScope, limit: number, after?: CalendarPosition): Promise<CalendarHead[]> {
    return this.dataSource.query(
      `SELECT c.tenant_id AS "tenantId", c.name,
         (SELECT count(*)::int FROM calendar_dates d WHERE d.tenant_id = c.tenant_id AND d.calendar = c.name) AS "dateCount"
       FROM calendars c
       WHERE ${tenantCondition(scope, 'c.tenant_id', 1)} AND ($2::varchar IS NULL OR (c.name, c.tenant_id) > ($2, $3::varchar))
       ORDER BY c.name, c.tenant_id LIMIT $4`,
      [ownedBy(scope), after?.name ?? null, after?.tenantId ?? null, limit],
    );
  }

  /** The calendars at `positions` that still exist, whole, by name then tenant. */
  findAll(positions: readonly CalendarPosition[]): Promise<CalendarRecord[]> {
    return this.dataSource.query(
      `SELECT ${CALENDAR} FROM calendars c
       WHERE (c.tenant_id, c.name) IN (SELECT * FROM unnest($1::varchar[], $2::varchar[]))
       ORDER BY c.name, c.tenant_id`,
      [positions.map((p) => p.tenantId), positions.map((p) => p.name)],
    );
  }

  /** The dates of the tenant's calendar, as the schedules naming it read them; null when there is no such calendar. */
  async datesOf(tenant: string, name: string): Promise<CalendarDates | null> {
    const calendar = await this.find({ tenant }, name);
    return calendar && new Set(calendar.dates);
  }

  /** Those of `names` that name none of the tenant's calendars. */
  async unknown(tenant: string, names: readonly string[]): Promise<string[]> {
    if (names.length === 0) return [];
    const rows: { name: string }[] = await this.dataSource.query(
      `SELECT n.name FROM unnest($2::varchar[]) AS n(name) WHERE NOT EXISTS (SELECT 1 FROM calendars c WHERE c.tenant_id = $1 AND c.name = n.name)`,
      [tenant, [...new Set(names)]],
    );
    return rows.map((row) => row.name);
  }

  /** Deletes the tenant's calendar with its dates, unless an action names it: the foreign key decides, atomically with any create naming it. */
  async delete(tenant: string, name: string): Promise<CalendarDeletion> {
    try {
      const [, deleted]: [unknown, number] = await this.dataSource.query(`DELETE FROM calendars WHERE tenant_id = $1 AND name = $2`, [tenant, name]);
      return deleted === 1 ? { kind: 'deleted' } : { kind: 'missing' };
    } catch (error) {
      if (!violates(error, ACTION_CALENDAR_KEY)) throw error;
      const [{ count }]: { count: number }[] = await this.dataSource.query(
        `SELECT count(*)::int AS count FROM actions WHERE tenant_id = $1 AND calendar = $2`,
        [tenant, name],
      );
      return { kind: 'in-use', namedBy: count };
    }
  }
}

/** Whether a write naming a calendar failed because the calendar was deleted after it was checked. */
export function isCalendarDeletedMeanwhile(error: unknown): boolean {
  return violates(error, ACTION_CALENDAR_KEY);
}

function violates(error: unknown, constraint: string): boolean {
  const cause = (error as { driverError?: { code?: string; constraint?: string } }).driverError ?? (error as { code?: string; constraint?: string });
  return cause?.code === '23503' && cause.constraint === constraint;
}
