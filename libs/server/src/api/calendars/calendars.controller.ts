import { Body, Controller, Delete, Get, HttpCode, Param, Put, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { TenantScope } from '@app/database';
import { Caller, VerifiedKey } from '@app/signature';
import { CallerScope } from '../input/caller-scope.decorator';
import { ApiRefusals, Summary } from '../http/api-refusals.decorator';
import { SignedRoutes } from '../http/signed-routes.decorator';
import { CALENDAR_NAME } from './calendar-name.pipe';
import { CalendarsService } from './calendars.service';
import { CalendarPageQuery } from './dto/calendar-page.query';
import { CalendarListResponse, CalendarResponse } from './dto/calendar.response';
import { PutCalendarDto } from './dto/put-calendar.dto';

@SignedRoutes('calendars')
@Controller('calendars')
export class CalendarsController {
  constructor(private readonly calendars: CalendarsService) {}

  @Put(':name')
  @Summary('Create or replace a calendar')
  @HttpCode(200)
  @ApiOkResponse({ type: CalendarResponse, description: 'Created, or its dates and description replaced; it applies to every occurrence still to come' })
  @ApiBadRequestResponse({ description: 'A bad name, a date that does not exist, more than 5,000 dates, or an unknown field' })
  @ApiTooManyRequestsResponse({
    description: 'A new name while the tenant has the most calendars it may keep (TENANT_MAX_CALENDARS, 100 by default); nothing stored',
  })
  async put(@Param('name', CALENDAR_NAME) name: string, @Body() dto: PutCalendarDto, @Caller() caller: VerifiedKey): Promise<CalendarResponse> {
    return CalendarResponse.from(await this.calendars.put(caller.tenant, name, dto));
  }

  @Get()
  @Summary('List calendars')
  @ApiOkResponse({ type: CalendarListResponse, description: 'One page, by name' })
  @ApiBadRequestResponse({ description: 'A limit outside 1–100, or a cursor that is not a nextCursor' })
  async list(@Query() query: CalendarPageQuery, @CallerScope() scope: TenantScope): Promise<CalendarListResponse> {
    return CalendarListResponse.from(await this.calendars.list(scope, query));
  }

  @Get(':name')
  @Summary('Get a calendar')
  @ApiRefusals.badRequest('name is not a calendar name')
  @ApiOkResponse({ type: CalendarResponse })
  @ApiNotFoundResponse()
  async get(@Param('name', CALENDAR_NAME) name: string, @CallerScope() scope: TenantScope): Promise<CalendarResponse> {
    return CalendarResponse.from(await this.calendars.get(scope, name));
  }

  @Delete(':name')
  @Summary('Delete a calendar')
  @ApiRefusals.badRequest('name is not a calendar name')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiConflictResponse({ description: 'An action names it' })
  @ApiNotFoundResponse()
  async remove(@Param('name', CALENDAR_NAME) name: string, @Caller() caller: VerifiedKey): Promise<void> {
    await this.calendars.remove(caller.tenant, name);
  }
}
