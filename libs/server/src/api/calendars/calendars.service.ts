import { Injectable } from '@nestjs/common';
import { PunctualConfig } from '@app/config';
import { CalendarHead, CalendarRecord, CalendarsRepository, TenantScope } from '@app/database';
import { PageParams } from '@punctual/contract';
import { CalendarInUseError, CalendarNotFoundError } from '../errors/calendar.errors';
import { QuotaExceededError } from '../errors/quota.errors';
import { decodeCalendarCursor, encodeCalendarCursor } from './calendar-cursor';
import { DEFAULT_CALENDAR_PAGE } from './dto/calendar-page.query';
import { PutCalendarDto } from './dto/put-calendar.dto';

/** When to try a refused create again: a deletion may have made room by then; nothing frees one on its own. */
const FULL_RETRY_SECONDS = 60;

/** The most dates one page of calendars holds, unless its first calendar alone holds more. */
export const MAX_PAGE_DATES = 20_000;

/** How many of `heads` a page takes: at most `limit`, and no more than fit `MAX_PAGE_DATES` after the first. */
function pageLength(heads: readonly CalendarHead[], limit: number): number {
  let kept = 0;
  let dates = 0;
  while (kept < Math.min(limit, heads.length) && (kept === 0 || dates + heads[kept].dateCount <= MAX_PAGE_DATES)) {
    dates += heads[kept].dateCount;
    kept += 1;
  }
  return kept;
}

export interface CalendarPage {
  items: CalendarRecord[];
  nextCursor: string | null;
}

/**
 * Calendars, for every door (HTTP, RPC, the console). A change is one small write whatever the
 * number of actions naming the calendar: each occurrence is checked against the dates when it
 * comes due.
 */
@Injectable()
export class CalendarsService {
  private readonly maxPerTenant: number;

  constructor(
    private readonly calendars: CalendarsRepository,
    config: PunctualConfig,
  ) {
    this.maxPerTenant = config.calendars.maxPerTenant;
  }

  /** Creates the tenant's calendar (429 once it has the most it may keep), or replaces its dates and description. */
  async put(tenant: string, name: string, dto: PutCalendarDto): Promise<CalendarRecord> {
    const calendar = await this.calendars.put(tenant, name, [...new Set(dto.dates)], dto.description ?? null, this.maxPerTenant);
    if (calendar) return calendar;
    throw new QuotaExceededError(
      `Tenant ${tenant} already has ${this.maxPerTenant} calendars, the most a tenant may keep; replace one of them, or delete one (DELETE /calendars/:name) before creating ${name}`,
      FULL_RETRY_SECONDS,
    );
  }

  async get(scope: TenantScope, name: string): Promise<CalendarRecord> {
    const calendar = await this.calendars.find(scope, name);
    if (!calendar) throw new CalendarNotFoundError(name);
    return calendar;
  }

  /**
   * One page of the calendars `scope` may see, by name: up to `limit` of them, ending early once
   * they hold `MAX_PAGE_DATES` dates (always at least one), so no page costs more than that to read
   * and send however large its calendars. A cursor that is not a `nextCursor` is refused (400).
   */
  async list(scope: TenantScope, query: PageParams): Promise<CalendarPage> {
    const limit = query.limit ?? DEFAULT_CALENDAR_PAGE;
    const heads = await this.calendars.heads(scope, limit + 1, query.cursor ? decodeCalendarCursor(query.cursor) : undefined);
    const kept = pageLength(heads, limit);
    const items = kept === 0 ? [] : await this.calendars.findAll(heads.slice(0, kept));
    return { items, nextCursor: heads.length > kept ? encodeCalendarCursor(heads[kept - 1]) : null };
  }

  /** Deletes the tenant's calendar (404 when unknown), refused (409) while an action names it. */
  async remove(tenant: string, name: string): Promise<void> {
    const deletion = await this.calendars.delete(tenant, name);
    if (deletion.kind === 'missing') throw new CalendarNotFoundError(name);
    if (deletion.kind === 'in-use') throw new CalendarInUseError(name, deletion.namedBy);
  }
}
