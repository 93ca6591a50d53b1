import { Body, Controller, Get, Header, HttpStatus, Param, Post, Query, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ActionEntity, EVERY_TENANT } from '@app/database';
import { ApiExcludeController } from '@nestjs/swagger';
import { Response } from 'express';
import { ActionStatus, InvalidChangeError, TransitionRefusedError } from '@app/domain';
import { ActionTypeRegistry } from '@app/action-types';
import { ActionCommands, ActionControl } from '../actions/action-commands.service';
import { ActionQueries } from '../actions/action-queries.service';
import { ERROR_ANSWERS } from '../errors/error-replies';
import { QuotaExceededError } from '../errors/quota.errors';
import { ConsoleExceptionFilter } from './console-exception.filter';
import { MAX_SKIP_COUNT } from '../actions/dto/skip-occurrences.dto';
import { ConsoleInputError, RawInput, parseCount, parseId, parseListFilters, parseTime, textField } from './console-input';
import { ActionPageService } from './action-page.service';
import { ConsoleTenants } from './tenant-filter';
import { CsrfGuard } from './security/csrf.guard';
import { CsrfToken } from './security/csrf-token.decorator';
import { actionListView } from './views/action-list.view';
import { actionPageView } from './views/action-page.view';
import { HTML_CONTENT_TYPE, Notice, layout, sendPage } from './views/layout.view';

/** What a redirect after a successful change says on the page it leads to; only these fixed texts are shown. */
type Done = 'retried' | 'rescheduled' | 'canceled' | 'paused' | 'resumed' | 'skipped';
const DONE = new Map<Done, string>([
  ['paused', 'Paused: no later occurrence starts until it is resumed (one that is running or locked finishes first).'],
  ['resumed', 'Resumed: the action runs on its schedule again.'],
  ['skipped', 'Skip requested: the next occurrences asked for do not run.'],
  ['retried', 'Retried: the action is PENDING again and runs now, as the same occurrence.'],
  ['rescheduled', 'Rescheduled: the action runs at its new execution time.'],
  ['canceled', 'Canceled: the action never runs again (an occurrence that was running or locked finishes first).'],
]);

/** The page refreshes in place after a change: a text about a state that has since moved on says where it went. */
function doneNotice(done: Done, action: ActionEntity): Notice {
  const moved = done === 'retried' && action.status !== ActionStatus.Pending && action.status !== ActionStatus.InProgress;
  return { kind: 'success', text: moved ? `Retried: the retry has run since, and the action is now ${action.status}.` : DONE.get(done)! };
}

/**
 * The actions list and each action's page with its operations. Every change goes through
 * `ActionCommands.control`, exactly as the REST API's does; a refusal is shown with the service's reason.
 */
@ApiExcludeController()
@Controller('admin/actions')
@UseFilters(ConsoleExceptionFilter)
export class ActionPagesController {
  constructor(
    private readonly commands: ActionCommands,
    private readonly queries: ActionQueries,
    private readonly pages: ActionPageService,
    private readonly types: ActionTypeRegistry,
    private readonly tenants: ConsoleTenants,
  ) {}

  @Get()
  async list(@Query() query: RawInput, @Res() res: Response): Promise<void> {
    const id = textField(query, 'id');
    if (id) return res.redirect(303, `/admin/actions/${parseId(id)}`);
    const tenant = await this.tenants.filter(query);
    const filters = { ...parseListFilters(query), tenant: tenant.selected };
    const page = await this.queries.list(filters, tenant.scope);
    const types = [...new Set([...this.types.types(), ...(filters.action ? [filters.action] : [])])].sort();
    const deleted = textField(query, 'deleted');
    const notice: Notice | undefined = deleted
      ? { kind: 'success', text: `Deleted action ${parseId(deleted, 'deleted')}: it will never run.` }
      : undefined;
    const body = actionListView({ filters, types, tenant, ...page });
    sendPage(res, HttpStatus.OK, layout({ title: 'Actions', section: 'actions', tenant: tenant.selected, notice, body }));
  }

  @Get(':id')
  @Header('Content-Type', HTML_CONTENT_TYPE)
  async show(@Param('id') id: string, @Query('done') done: unknown, @CsrfToken() csrfToken: string): Promise<string> {
    return this.render(parseId(id), csrfToken, undefined, typeof done === 'string' && DONE.has(done as Done) ? (done as Done) : undefined);
  }

  @Post(':id/retry')
  @UseGuards(CsrfGuard)
  retry(@Param('id') id: string, @CsrfToken() csrfToken: string, @Res() res: Response): Promise<void> {
    return this.change(parseId(id), csrfToken, res, 'retried', { type: 'retriedManually' });
  }

  @Post(':id/reschedule')
  @UseGuards(CsrfGuard)
  reschedule(@Param('id') id: string, @Body() body: RawInput, @CsrfToken() csrfToken: string, @Res() res: Response): Promise<void> {
    const raw = textField(body, 'executionTime');
    if (!raw) throw new ConsoleInputError('executionTime', 'is required: give the new execution time');
    const executionTime = parseTime(raw, 'executionTime');
    return this.change(parseId(id), csrfToken, res, 'rescheduled', { type: 'patched', changes: { executionTime }, by: null });
  }

  @Post(':id/cancel')
  @UseGuards(CsrfGuard)
  cancel(@Param('id') id: string, @CsrfToken() csrfToken: string, @Res() res: Response): Promise<void> {
    return this.change(parseId(id), csrfToken, res, 'canceled', { type: 'canceled', note: 'canceled in the console' });
  }

  @Post(':id/pause')
  @UseGuards(CsrfGuard)
  pause(@Param('id') id: string, @CsrfToken() csrfToken: string, @Res() res: Response): Promise<void> {
    return this.change(parseId(id), csrfToken, res, 'paused', { type: 'paused', note: 'paused in the console' });
  }

  @Post(':id/resume')
  @UseGuards(CsrfGuard)
  resume(@Param('id') id: string, @CsrfToken() csrfToken: string, @Res() res: Response): Promise<void> {
    return this.change(parseId(id), csrfToken, res, 'resumed', { type: 'resumed' });
  }

  @Post(':id/skip')
  @UseGuards(CsrfGuard)
  skip(@Param('id') id: string, @Body() body: RawInput, @CsrfToken() csrfToken: string, @Res() res: Response): Promise<void> {
    const count = parseCount(textField(body, 'count') ?? '1', 'count', MAX_SKIP_COUNT);
    return this.change(parseId(id), csrfToken, res, 'skipped', { type: 'skipRequested', count });
  }

  @Post(':id/delete')
  @UseGuards(CsrfGuard)
  async remove(@Param('id') id: string, @CsrfToken() csrfToken: string, @Res() res: Response): Promise<void> {
    const actionId = parseId(id);
    const refusal = await this.refusalOf(() => this.commands.control(actionId, EVERY_TENANT, { type: 'deleted' }));
    if (!refusal) return res.redirect(303, `/admin/actions?deleted=${actionId}`);
    sendPage(res, refusal.status, await this.render(actionId, csrfToken, refusal.notice));
  }

  /** Applies a control as the operator; done → back to the action's page (a reload then changes nothing), refused → the page with the reason. */
  private async change(id: string, csrfToken: string, res: Response, done: Done, control: ActionControl): Promise<void> {
    const refusal = await this.refusalOf(() => this.commands.control(id, EVERY_TENANT, control));
    if (!refusal) return res.redirect(303, `/admin/actions/${id}?done=${done}`);
    sendPage(res, refusal.status, await this.render(id, csrfToken, refusal.notice));
  }

  /**
   * The lifecycle's refusals (locked, running, finished, wrong status) and the tenant's quota (a
   * retry with no place left) as the reason to show, with their code's status; other errors go on.
   */
  private async refusalOf(apply: () => Promise<unknown>): Promise<{ status: HttpStatus; notice: Notice } | null> {
    try {
      await apply();
      return null;
    } catch (error) {
      if (!(error instanceof TransitionRefusedError || error instanceof InvalidChangeError || error instanceof QuotaExceededError)) throw error;
      return { status: ERROR_ANSWERS[error.code].status, notice: { kind: 'error', text: error.message } };
    }
  }

  private async render(id: string, csrfToken: string, notice?: Notice, done?: Done): Promise<string> {
    const data = await this.pages.load(id);
    const body = actionPageView({ ...data, csrfToken, done: done && doneNotice(done, data.action) });
    return layout({ title: `Action ${id}`, section: 'actions', notice, body });
  }
}
