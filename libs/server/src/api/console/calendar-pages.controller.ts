import { BadRequestException, Body, Controller, Get, HttpStatus, Param, Post, Query, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Response } from 'express';
import { DEFAULT_TENANT, TENANT_ID_RULE, isCalendarName, isTenantId } from '@app/domain';
import { CALENDAR_NAME_RULE } from '../actions/dto/calendar-name';
import { TenantsAdminService } from '../admin-api/tenants-admin.service';
import { CALENDAR_NAME } from '../calendars/calendar-name.pipe';
import { CalendarsService } from '../calendars/calendars.service';
import { PutCalendarDto } from '../calendars/dto/put-calendar.dto';
import { InvalidRequestError } from '../errors/action.errors';
import { CalendarInUseError, CalendarNotFoundError } from '../errors/calendar.errors';
import { ERROR_ANSWERS } from '../errors/error-replies';
import { QuotaExceededError } from '../errors/quota.errors';
import { TenantNotFoundError } from '../errors/tenant.errors';
import { validated } from '../rpc/rpc-input';
import { ConsoleExceptionFilter } from './console-exception.filter';
import { ConsoleInputError, RawInput, parseTenantId, textField } from './console-input';
import { ConsoleTenants } from './tenant-filter';
import { CsrfGuard } from './security/csrf.guard';
import { CsrfToken } from './security/csrf-token.decorator';
import { CalendarForm, CalendarsShown, calendarForm, calendarsView, emptyCalendarForm } from './views/calendars.view';
import { queryString } from './views/html';
import { Notice, layout, sendPage } from './views/layout.view';
import { TenantFilter } from './views/tenant-filter.view';

/** A textarea of dates: one or more of them between any spaces, commas and line breaks. */
const DATE_SEPARATORS = /[\s,]+/;

interface Refusal {
  status: HttpStatus;
  notice: Notice;
}

/** A calendar's name from the query (of a link to it, or of a redirect, so the notice only ever names a calendar). */
function calendarNameIn(query: RawInput, field: 'name' | 'saved' | 'deleted'): string | undefined {
  const name = textField(query, field);
  if (name !== undefined && !isCalendarName(name)) throw new ConsoleInputError(field, `must be a calendar's name (${CALENDAR_NAME_RULE})`);
  return name;
}

/** What a redirect after a change says; it leads to the page of the calendar's tenant. */
function doneNotice(query: RawInput, filter: TenantFilter): Notice | undefined {
  const of = filter.selected ? ` of tenant ${filter.selected}` : '';
  const saved = calendarNameIn(query, 'saved');
  if (saved) return { kind: 'success', text: `Saved calendar ${saved}${of}: every occurrence still to come follows its dates.` };
  const deleted = calendarNameIn(query, 'deleted');
  return deleted ? { kind: 'success', text: `Deleted calendar ${deleted}${of}.` } : undefined;
}

function formOf(body: RawInput): CalendarForm {
  return {
    tenant: textField(body, 'tenant') ?? DEFAULT_TENANT,
    name: textField(body, 'name') ?? '',
    description: textField(body, 'description') ?? '',
    dates: textField(body, 'dates') ?? '',
  };
}

/** The form as the body of `PUT /calendars/:name`, for the API's own validation to judge. */
function putBody(form: CalendarForm): { dates: string[]; description: string | null } {
  return { dates: form.dates.split(DATE_SEPARATORS).filter(Boolean), description: form.description || null };
}

/** What a calendar change is refused with (a bad tenant, name or body, unknown, still named, one too many), as the reason to show with its status; other errors go on. */
async function refusalOf(apply: () => Promise<unknown>): Promise<Refusal | null> {
  try {
    await apply();
    return null;
  } catch (error) {
    if (error instanceof BadRequestException) {
      const { message } = error.getResponse() as { message: string | string[] };
      return { status: error.getStatus(), notice: { kind: 'error', text: [message].flat().join('; ') } };
    }
    const refused =
      error instanceof InvalidRequestError ||
      error instanceof TenantNotFoundError ||
      error instanceof CalendarNotFoundError ||
      error instanceof CalendarInUseError ||
      error instanceof QuotaExceededError;
    if (!refused) throw error;
    return { status: ERROR_ANSWERS[error.code].status, notice: { kind: 'error', text: error.message } };
  }
}

/**
 * `/admin/calendars`: the calendars of every tenant, or of the one `?tenant=` names, with their
 * dates, a page at a time (`?cursor=`, as `GET /calendars` pages them) or the one `?name=` names;
 * and their creation, replacement and deletion for any tenant through the same `CalendarsService`
 * and validation as `PUT` and `DELETE /calendars/:name`. A refusal shows the first page again with
 * the API's reason and status, and stores nothing.
 */
@ApiExcludeController()
@Controller('admin/calendars')
@UseFilters(ConsoleExceptionFilter)
export class CalendarPagesController {
  constructor(
    private readonly calendars: CalendarsService,
    private readonly tenants: TenantsAdminService,
    private readonly consoleTenants: ConsoleTenants,
  ) {}

  @Get()
  async index(@Query() query: RawInput, @CsrfToken() csrfToken: string, @Res() res: Response): Promise<void> {
    const filter = await this.consoleTenants.filter(query);
    const name = calendarNameIn(query, 'name');
    const shown = await this.shown(filter, name, textField(query, 'cursor'));
    // `?name=…&edit=1`: the form holds that calendar as stored, to be changed and saved over it.
    const form =
      name !== undefined && textField(query, 'edit') === '1' ? calendarForm(shown.items[0]) : emptyCalendarForm(filter.selected ?? DEFAULT_TENANT);
    await this.send(res, HttpStatus.OK, csrfToken, filter, doneNotice(query, filter), form, shown);
  }

  @Post()
  @UseGuards(CsrfGuard)
  async put(@Body() body: RawInput, @CsrfToken() csrfToken: string, @Res() res: Response): Promise<void> {
    const form = formOf(body);
    const refusal = await refusalOf(async () => {
      if (!isTenantId(form.tenant)) throw new InvalidRequestError(`tenant must be ${TENANT_ID_RULE}`);
      const name = CALENDAR_NAME.transform(form.name);
      const dto = await validated(PutCalendarDto, putBody(form));
      // A calendar of a tenant that does not exist could never be named: refused, as the tenant is unknown.
      await this.tenants.get(form.tenant);
      await this.calendars.put(form.tenant, name, dto);
    });
    // Back to a page that a reload does not send again: the calendar's tenant's.
    if (!refusal) return res.redirect(HttpStatus.SEE_OTHER, `/admin/calendars${queryString({ tenant: form.tenant, saved: form.name })}`);
    // The form keeps what was sent, to be corrected rather than typed again.
    await this.send(res, refusal.status, csrfToken, await this.consoleTenants.around(form.tenant), refusal.notice, form);
  }

  @Post(':tenant/:name/delete')
  @UseGuards(CsrfGuard)
  async remove(@Param('tenant') rawTenant: string, @Param('name') rawName: string, @CsrfToken() csrfToken: string, @Res() res: Response): Promise<void> {
    const tenant = parseTenantId(rawTenant);
    const name = CALENDAR_NAME.transform(rawName);
    const refusal = await refusalOf(() => this.calendars.remove(tenant, name));
    if (!refusal) return res.redirect(HttpStatus.SEE_OTHER, `/admin/calendars${queryString({ tenant, deleted: name })}`);
    await this.send(res, refusal.status, csrfToken, await this.consoleTenants.around(tenant), refusal.notice, emptyCalendarForm(tenant));
  }

  /** The calendar `name` names (404 when none), or the page of calendars after `cursor` (the first without one). */
  private async shown(filter: TenantFilter, name: string | undefined, cursor: string | undefined): Promise<CalendarsShown> {
    if (name !== undefined) return { items: [await this.calendars.get(filter.scope, name)], nextCursor: null, only: name };
    return { ...(await this.calendars.list(filter.scope, { cursor })), cursor };
  }

  private async send(
    res: Response,
    status: HttpStatus,
    csrfToken: string,
    filter: TenantFilter,
    notice: Notice | undefined,
    form: CalendarForm,
    shown?: CalendarsShown,
  ): Promise<void> {
    const body = calendarsView(shown ?? (await this.shown(filter, undefined, undefined)), form, filter, csrfToken);
    sendPage(res, status, layout({ title: 'Calendars', section: 'calendars', tenant: filter.selected, notice, body }));
  }
}
