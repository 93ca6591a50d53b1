import { Controller, UseFilters, UseGuards } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { RPC_PATTERNS } from '@punctual/contract';
import { TenantScope } from '@app/database';
import { Caller, SignatureGuard, VerifiedKey } from '@app/signature';
import { CallerScope } from '../input/caller-scope.decorator';
import { CALENDAR_NAME } from '../calendars/calendar-name.pipe';
import { CalendarsService } from '../calendars/calendars.service';
import { CalendarPageQuery } from '../calendars/dto/calendar-page.query';
import { CalendarListResponse, CalendarResponse } from '../calendars/dto/calendar.response';
import { PutCalendarDto } from '../calendars/dto/put-calendar.dto';
import { RpcErrorFilter } from './rpc-error.filter';
import { TenantInboxGuard } from './tenant-inbox.guard';
import { envelope, validated } from './rpc-input';
import { RPC_BODY, RPC_CALENDAR_BODY } from './rpc-json-body.pipe';

/** Every `/calendars` route as a message pattern (`{ "name", … body }`, or the list's `{ "limit"?, "cursor"? }`), through the service its HTTP twin calls. */
@UseGuards(SignatureGuard, TenantInboxGuard)
@UseFilters(RpcErrorFilter)
@Controller()
export class CalendarsRpcController {
  constructor(private readonly calendars: CalendarsService) {}

  @MessagePattern(RPC_PATTERNS.putCalendar)
  async put(@Payload(RPC_CALENDAR_BODY) body: unknown, @Caller() caller: VerifiedKey): Promise<CalendarResponse> {
    const { name, ...rest } = envelope(body, ['name', 'dates', 'description']);
    const dto = await validated(PutCalendarDto, rest);
    return CalendarResponse.from(await this.calendars.put(caller.tenant, CALENDAR_NAME.transform(name), dto));
  }

  @MessagePattern(RPC_PATTERNS.getCalendar)
  async get(@Payload(RPC_BODY) body: unknown, @CallerScope() scope: TenantScope): Promise<CalendarResponse> {
    return CalendarResponse.from(await this.calendars.get(scope, CALENDAR_NAME.transform(envelope(body, ['name']).name)));
  }

  @MessagePattern(RPC_PATTERNS.listCalendars)
  async list(@Payload(RPC_BODY) body: unknown, @CallerScope() scope: TenantScope): Promise<CalendarListResponse> {
    return CalendarListResponse.from(await this.calendars.list(scope, await validated(CalendarPageQuery, body)));
  }

  /** Answers `null`, as a reply must carry a value where HTTP answers 204. */
  @MessagePattern(RPC_PATTERNS.deleteCalendar)
  async remove(@Payload(RPC_BODY) body: unknown, @Caller() caller: VerifiedKey): Promise<null> {
    await this.calendars.remove(caller.tenant, CALENDAR_NAME.transform(envelope(body, ['name']).name));
    return null;
  }
}
