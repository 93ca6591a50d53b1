import { BadRequestException, Body, Controller, Get, HttpStatus, Param, Post, Query, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Response } from 'express';
import { tenantScope } from '@app/database';
import { DEFAULT_TENANT, isCalendarName } from '@app/domain';
import { CALENDAR_NAME_RULE } from '../actions/dto/calendar-name';
import { CALENDAR_NAME } from '../calendars/calendar-name.pipe';
import { CalendarsService } from '../calendars/calendars.service';
import { PutCalendarDto } from '../calendars/dto/put-calendar.dto';
import { InvalidRequestError } from '../errors/action.errors';
import { CalendarInUseError, CalendarNotFoundError } from '../errors/calendar.errors';
import { ERROR_ANSWERS } from '../errors/error-replies';
import { validated } from '../rpc/rpc-input';
import { ConsoleExceptionFilter } from './console-exception.filter';
import { ConsoleInputError, RawInput, textField } from './console-input';
import { CsrfGuard } from './security/csrf.guard';
import { CsrfToken } from './security/csrf-token.decorator';
import { CalendarForm, EMPTY_CALENDAR_FORM, calendarsView } from './views/calendars.view';
import { Notice, layout, sendPage } from './views/layout.view';

/** A textarea of dates: one or more of them between any spaces, commas and line breaks. */
const DATE_SEPARATORS = /[\s,]+/;

interface Refusal {
  status: HttpStatus;
  notice: Notice;
}

/** A calendar's name from the query of a redirect, so the notice only ever names a calendar. */
function redirectedName(query: RawInput, field: 'saved' | 'deleted'): string | undefined {
  const name = textField(query, field);
  if (name !== undefined && !isCalendarName(name)) throw new ConsoleInputError(field, `must be a calendar's name (${CALENDAR_NAME_RULE})`);
  return name;
}

function doneNotice(query: RawInput): Notice | undefined {
  const saved = redirectedName(query, 'saved');
  if (saved) return { kind: 'success', text: `Saved calendar ${saved}: every occurrence still to come follows its dates.` };
  const deleted = redirectedName(query, 'deleted');
  return deleted ? { kind: 'success', text: `Deleted calendar ${deleted}.` } : undefined;
}

function formOf(body: RawInput): CalendarForm {
  return { name: textField(body, 'name') ?? '', description: textField(body, 'description') ?? '', dates: textField(body, 'dates') ?? '' };
}

/** The form as the body of `PUT /calendars/:name`, for the API's own validation to judge. */
function putBody(form: CalendarForm): { dates: string[]; description: string | null } {
  return { dates: form.dates.split(DATE_SEPARATORS).filter(Boolean), description: form.description || null };
}

/** What the API refuses a calendar change with (a bad name or body, unknown, still named), as the reason to show with its status; other errors go on. */
async function refusalOf(apply: () => Promise<unknown>): Promise<Refusal | null> {
  try {
    await apply();
    return null;
  } catch (error) {
    if (error instanceof BadRequestException) {
      const { message } = error.getResponse() as { message: string | string[] };
      return { status: error.getStatus(), notice: { kind: 'error', text: [message].flat().join('; ') } };
    }
    if (!(error instanceof InvalidRequestError || error instanceof CalendarNotFoundError || error instanceof CalendarInUseError)) throw error;
    return { status: ERROR_ANSWERS[error.code].status, notice: { kind: 'error', text: error.message } };
  }
}

/**
 * `/admin/calendars`: every calendar with its dates, and their creation, replacement and deletion
 * through the same `CalendarsService` and validation as `PUT` and `DELETE /calendars/:name`.
 * A refusal shows the page again with the API's reason and status, and stores nothing.
 */
@ApiExcludeController()
@Controller('admin/calendars')
@UseFilters(ConsoleExceptionFilter)
export class CalendarPagesController {
  constructor(private readonly calendars: CalendarsService) {}

  @Get()
  async index(@Query() query: RawInput, @CsrfToken() csrfToken: string, @Res() res: Response): Promise<void> {
    await this.send(res, HttpStatus.OK, csrfToken, doneNotice(query));
  }

  @Post()
  @UseGuards(CsrfGuard)
  async put(@Body() body: RawInput, @CsrfToken() csrfToken: string, @Res() res: Response): Promise<void> {
    const form = formOf(body);
    const refusal = await refusalOf(async () => {
      const name = CALENDAR_NAME.transform(form.name);
      await this.calendars.put(DEFAULT_TENANT, name, await validated(PutCalendarDto, putBody(form)));
    });
    // Back to a page that a reload does not send again.
    if (!refusal) return res.redirect(HttpStatus.SEE_OTHER, `/admin/calendars?saved=${form.name}`);
    // The form keeps what was sent, to be corrected rather than typed again.
    await this.send(res, refusal.status, csrfToken, refusal.notice, form);
  }

  @Post(':name/delete')
  @UseGuards(CsrfGuard)
  async remove(@Param('name') rawName: string, @CsrfToken() csrfToken: string, @Res() res: Response): Promise<void> {
    const name = CALENDAR_NAME.transform(rawName);
    const refusal = await refusalOf(() => this.calendars.remove(DEFAULT_TENANT, name));
    if (!refusal) return res.redirect(HttpStatus.SEE_OTHER, `/admin/calendars?deleted=${name}`);
    await this.send(res, refusal.status, csrfToken, refusal.notice);
  }

  private async send(res: Response, status: HttpStatus, csrfToken: string, notice?: Notice, form = EMPTY_CALENDAR_FORM): Promise<void> {
    const calendars = await this.calendars.list(tenantScope(DEFAULT_TENANT));
    sendPage(res, status, layout({ title: 'Calendars', section: 'calendars', notice, body: calendarsView(calendars, form, csrfToken) }));
  }
}
