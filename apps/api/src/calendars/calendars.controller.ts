import { Body, Controller, Delete, Get, HttpCode, Param, Put, UseFilters, UseGuards } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiSecurity,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { SignatureGuard } from '@app/signature';
import { ApiExceptionFilter } from '../errors/api-exception.filter';
import { CALENDAR_NAME } from './calendar-name.pipe';
import { CalendarsService } from './calendars.service';
import { CalendarListResponse, CalendarResponse } from './dto/calendar.response';
import { PutCalendarDto } from './dto/put-calendar.dto';

@ApiTags('calendars')
@ApiSecurity('X-Punctual-Key')
@ApiSecurity('X-Punctual-Timestamp')
@ApiSecurity('X-Punctual-Nonce')
@ApiSecurity('X-Punctual-Signature')
@ApiUnauthorizedResponse({ description: 'Missing, malformed, expired, replayed or wrong signature' })
@UseGuards(SignatureGuard)
@UseFilters(ApiExceptionFilter)
@Controller('calendars')
export class CalendarsController {
  constructor(private readonly calendars: CalendarsService) {}

  @Put(':name')
  @HttpCode(200)
  @ApiOkResponse({ type: CalendarResponse, description: 'Created, or its dates and description replaced; it applies to every occurrence still to come' })
  @ApiBadRequestResponse({ description: 'A bad name, a date that does not exist, more than 5,000 dates, or an unknown field' })
  async put(@Param('name', CALENDAR_NAME) name: string, @Body() dto: PutCalendarDto): Promise<CalendarResponse> {
    return CalendarResponse.from(await this.calendars.put(name, dto));
  }

  @Get()
  @ApiOkResponse({ type: CalendarListResponse, description: 'By name' })
  async list(): Promise<CalendarListResponse> {
    return { items: (await this.calendars.list()).map(CalendarResponse.from) };
  }

  @Get(':name')
  @ApiOkResponse({ type: CalendarResponse })
  @ApiNotFoundResponse()
  async get(@Param('name', CALENDAR_NAME) name: string): Promise<CalendarResponse> {
    return CalendarResponse.from(await this.calendars.get(name));
  }

  @Delete(':name')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiConflictResponse({ description: 'An action names it' })
  @ApiNotFoundResponse()
  async remove(@Param('name', CALENDAR_NAME) name: string): Promise<void> {
    await this.calendars.remove(name);
  }
}
