import { Injectable } from '@nestjs/common';
import { CalendarRecord, CalendarsRepository, TenantScope } from '@app/database';
import { CalendarInUseError, CalendarNotFoundError } from '../errors/calendar.errors';
import { PutCalendarDto } from './dto/put-calendar.dto';

/**
 * Calendars, for every door (HTTP, RPC, the console). A change is one small write whatever the
 * number of actions naming the calendar: each occurrence is checked against the dates when it
 * comes due.
 */
@Injectable()
export class CalendarsService {
  constructor(private readonly calendars: CalendarsRepository) {}

  /** Creates the tenant's calendar, or replaces its dates and description. */
  put(tenant: string, name: string, dto: PutCalendarDto): Promise<CalendarRecord> {
    return this.calendars.put(tenant, name, [...new Set(dto.dates)], dto.description ?? null);
  }

  async get(scope: TenantScope, name: string): Promise<CalendarRecord> {
    const calendar = await this.calendars.find(scope, name);
    if (!calendar) throw new CalendarNotFoundError(name);
    return calendar;
  }

  list(scope: TenantScope): Promise<CalendarRecord[]> {
    return this.calendars.list(scope);
  }

  /** Deletes the tenant's calendar (404 when unknown), refused (409) while an action names it. */
  async remove(tenant: string, name: string): Promise<void> {
    const deletion = await this.calendars.delete(tenant, name);
    if (deletion.kind === 'missing') throw new CalendarNotFoundError(name);
    if (deletion.kind === 'in-use') throw new CalendarInUseError(name, deletion.namedBy);
  }
}
