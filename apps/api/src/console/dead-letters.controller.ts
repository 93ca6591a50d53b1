import { Body, Controller, Get, Header, HttpStatus, Param, Post, Query, Res, UseFilters, UseGuards } from '@nestjs/common';
import { TenantScope } from '@app/database';
import { ApiExcludeController } from '@nestjs/swagger';
import { Response } from 'express';
import { ActionStatus } from '@app/domain';
import { ActionsService } from '../actions/actions.service';
import { DeadLettersService } from '../actions/dead-letters.service';
import { ConsoleExceptionFilter } from './console-exception.filter';
import { RawInput, parseActionType, textField } from './console-input';
import { ConsoleTenants } from './tenant-filter';
import { CsrfGuard } from './security/csrf.guard';
import { CsrfToken } from './security/csrf-token.decorator';
import { DEFAULT_PAGE_SIZE } from './views/action-list.view';
import { count } from './views/fragments';
import { deadLetterTypesView, deadLettersOfTypeView, retryAllConfirmView } from './views/dead-letters.view';
import { HTML_CONTENT_TYPE, Notice, layout } from './views/layout.view';
import { queryString, segment } from './views/html';

const COUNT = /^\d{1,9}$/;

/** `/admin/dead-letters`: the FAILED actions of each type (of every tenant, or of the one `?tenant=` names), and retrying them all at once. */
@ApiExcludeController()
@Controller('admin/dead-letters')
@UseFilters(ConsoleExceptionFilter)
export class DeadLettersController {
  constructor(
    private readonly actions: ActionsService,
    private readonly deadLetters: DeadLettersService,
    private readonly tenants: ConsoleTenants,
  ) {}

  @Get()
  @Header('Content-Type', HTML_CONTENT_TYPE)
  async index(@Query() query: RawInput): Promise<string> {
    const tenant = await this.tenants.filter(query);
    const stats = await this.actions.stats(tenant.scope);
    const failedByType = Object.entries(stats.byAction)
      .map(([type, byStatus]): [string, number] => [type, byStatus[ActionStatus.Failed] ?? 0])
      .filter(([, failed]) => failed > 0)
      .sort(([a], [b]) => a.localeCompare(b));
    return layout({ title: 'Dead letters', section: 'dead-letters', tenant: tenant.selected, body: deadLetterTypesView(failedByType, tenant) });
  }

  @Get(':type')
  @Header('Content-Type', HTML_CONTENT_TYPE)
  async ofType(@Param('type') rawType: string, @Query() query: RawInput): Promise<string> {
    const type = parseActionType(rawType, 'type');
    const cursor = textField(query, 'cursor');
    const tenant = await this.tenants.filter(query);
    const [failed, page] = await Promise.all([
      this.failedCount(type, tenant.scope),
      this.actions.list({ status: ActionStatus.Failed, action: type, limit: DEFAULT_PAGE_SIZE, cursor, newestFirst: true }, tenant.scope),
    ]);
    return layout({
      title: `FAILED ${type}`,
      section: 'dead-letters',
      tenant: tenant.selected,
      notice: retriedNotice(query),
      body: deadLettersOfTypeView({ type, failed, cursor, tenant, ...page }),
    });
  }

  @Get(':type/retry-all')
  @Header('Content-Type', HTML_CONTENT_TYPE)
  async confirmRetryAll(@Param('type') rawType: string, @Query() query: RawInput, @CsrfToken() csrfToken: string): Promise<string> {
    const type = parseActionType(rawType, 'type');
    const tenant = await this.tenants.filter(query);
    return layout({
      title: `Retry all FAILED ${type}`,
      section: 'dead-letters',
      tenant: tenant.selected,
      body: retryAllConfirmView(type, await this.failedCount(type, tenant.scope), tenant.selected, csrfToken),
    });
  }

  @Post(':type/retry-all')
  @UseGuards(CsrfGuard)
  async retryAll(@Param('type') rawType: string, @Body() body: RawInput, @Res() res: Response): Promise<void> {
    const type = parseActionType(rawType, 'type');
    // The confirmation names the tenant it counted for, in a field of its form.
    const tenant = await this.tenants.filter(body);
    const { retried, skipped, overQuota } = await this.deadLetters.retryAll(type, tenant.scope);
    // Back to a page that can be reloaded without retrying again.
    const done = queryString({
      tenant: tenant.selected,
      retried: String(retried),
      skipped: String(skipped),
      overQuota: overQuota > 0 ? String(overQuota) : undefined,
    });
    res.redirect(HttpStatus.SEE_OTHER, `/admin/dead-letters/${segment(type)}${done}`);
  }

  private async failedCount(type: string, scope: TenantScope): Promise<number> {
    return (await this.actions.stats(scope)).byAction[type]?.[ActionStatus.Failed] ?? 0;
  }
}

/** The outcome of a "retry all" the redirect carries: its counts (those over quota only when some were), shown only when all are numbers. */
function retriedNotice(query: RawInput): Notice | undefined {
  const retried = textField(query, 'retried');
  const skipped = textField(query, 'skipped') ?? '0';
  const overQuota = textField(query, 'overQuota') ?? '0';
  if (!retried || !COUNT.test(retried) || !COUNT.test(skipped) || !COUNT.test(overQuota)) return undefined;
  const n = Number(retried);
  const changed =
    Number(skipped) > 0 ? ` ${count(Number(skipped))} had changed meanwhile (retried or deleted by someone else) and were left as they were.` : '';
  const held =
    Number(overQuota) > 0 ? ` ${count(Number(overQuota))} stayed FAILED: their tenant has no place left among its active actions (maxActiveActions).` : '';
  return { kind: 'success', text: `Retried ${count(n)} action${n === 1 ? '' : 's'}: PENDING again, running now.${changed}${held}` };
}
