import { Body, Controller, Get, Header, HttpStatus, Param, Post, Query, Res, UseFilters, UseGuards } from '@nestjs/common';
import { TenantScope } from '@app/database';
import { ApiExcludeController } from '@nestjs/swagger';
import { Response } from 'express';
import { ActionStatus } from '@app/domain';
import { ActionQueries } from '../actions/action-queries.service';
import { DeadLettersService } from '../actions/dead-letters.service';
import { ConsoleExceptionFilter } from './console-exception.filter';
import { DEAD_LETTER_STATUSES, DeadLetterStatus, RawInput, parseActionType, parseDeadLetterStatus, textField } from './console-input';
import { ConsoleTenants } from './tenant-filter';
import { CsrfGuard } from './security/csrf.guard';
import { CsrfToken } from './security/csrf-token.decorator';
import { DEFAULT_PAGE_SIZE } from './views/action-list.view';
import { count } from './views/fragments';
import { deadLetterTypesView, deadLettersOfTypeView, retryAllConfirmView } from './views/dead-letters.view';
import { HTML_CONTENT_TYPE, Notice, layout } from './views/layout.view';
import { queryString, segment } from './views/html';

const COUNT = /^\d{1,9}$/;

/**
 * `/admin/dead-letters`: the FAILED and NO_ACTION actions of each type (of every tenant, or of the one
 * `?tenant=` names), and retrying all of one status at once. `?status=NO_ACTION` picks the second.
 */
@ApiExcludeController()
@Controller('admin/dead-letters')
@UseFilters(ConsoleExceptionFilter)
export class DeadLettersController {
  constructor(
    private readonly queries: ActionQueries,
    private readonly deadLetters: DeadLettersService,
    private readonly tenants: ConsoleTenants,
  ) {}

  @Get()
  @Header('Content-Type', HTML_CONTENT_TYPE)
  async index(@Query() query: RawInput): Promise<string> {
    const tenant = await this.tenants.filter(query);
    const stats = await this.queries.stats(tenant.scope);
    const byType = Object.entries(stats.byAction)
      .map(([type, byStatus]) => ({ type, counts: DEAD_LETTER_STATUSES.map((status) => byStatus[status] ?? 0) }))
      .filter(({ counts }) => counts.some((n) => n > 0))
      .sort((a, b) => a.type.localeCompare(b.type));
    return layout({ title: 'Dead letters', section: 'dead-letters', tenant: tenant.selected, body: deadLetterTypesView(byType, tenant) });
  }

  @Get(':type')
  @Header('Content-Type', HTML_CONTENT_TYPE)
  async ofType(@Param('type') rawType: string, @Query() query: RawInput): Promise<string> {
    const type = parseActionType(rawType, 'type');
    const status = parseDeadLetterStatus(query);
    const cursor = textField(query, 'cursor');
    const tenant = await this.tenants.filter(query);
    const [total, page] = await Promise.all([
      this.countOf(type, status, tenant.scope),
      this.queries.list({ status, action: type, limit: DEFAULT_PAGE_SIZE, cursor, newestFirst: true }, tenant.scope),
    ]);
    return layout({
      title: `${status} ${type}`,
      section: 'dead-letters',
      tenant: tenant.selected,
      notice: retriedNotice(query, status),
      body: deadLettersOfTypeView({ type, status, total, cursor, tenant, ...page }),
    });
  }

  @Get(':type/retry-all')
  @Header('Content-Type', HTML_CONTENT_TYPE)
  async confirmRetryAll(@Param('type') rawType: string, @Query() query: RawInput, @CsrfToken() csrfToken: string): Promise<string> {
    const type = parseActionType(rawType, 'type');
    const status = parseDeadLetterStatus(query);
    const tenant = await this.tenants.filter(query);
    return layout({
      title: `Retry all ${status} ${type}`,
      section: 'dead-letters',
      tenant: tenant.selected,
      body: retryAllConfirmView(type, status, await this.countOf(type, status, tenant.scope), tenant.selected, csrfToken),
    });
  }

  @Post(':type/retry-all')
  @UseGuards(CsrfGuard)
  async retryAll(@Param('type') rawType: string, @Body() body: RawInput, @Res() res: Response): Promise<void> {
    const type = parseActionType(rawType, 'type');
    const status = parseDeadLetterStatus(body);
    // The confirmation names the tenant it counted for, and the status, in fields of its form.
    const tenant = await this.tenants.filter(body);
    const { retried, skipped, overQuota } = await this.deadLetters.retryAll(type, status, tenant.scope);
    // Back to a page that can be reloaded without retrying again.
    const done = queryString({
      tenant: tenant.selected,
      status: status === ActionStatus.Failed ? undefined : status,
      retried: String(retried),
      skipped: String(skipped),
      overQuota: overQuota > 0 ? String(overQuota) : undefined,
    });
    res.redirect(HttpStatus.SEE_OTHER, `/admin/dead-letters/${segment(type)}${done}`);
  }

  private async countOf(type: string, status: DeadLetterStatus, scope: TenantScope): Promise<number> {
    return (await this.queries.stats(scope)).byAction[type]?.[status] ?? 0;
  }
}

/** The outcome of a "retry all" the redirect carries: its counts (those over quota only when some were), shown only when all are numbers. */
function retriedNotice(query: RawInput, status: DeadLetterStatus): Notice | undefined {
  const retried = textField(query, 'retried');
  const skipped = textField(query, 'skipped') ?? '0';
  const overQuota = textField(query, 'overQuota') ?? '0';
  if (!retried || !COUNT.test(retried) || !COUNT.test(skipped) || !COUNT.test(overQuota)) return undefined;
  const n = Number(retried);
  const changed =
    Number(skipped) > 0 ? ` ${count(Number(skipped))} had changed meanwhile (retried or deleted by someone else) and were left as they were.` : '';
  const held =
    Number(overQuota) > 0
      ? ` ${count(Number(overQuota))} stayed ${status}: their tenant has no place left among its active actions (maxActiveActions).`
      : '';
  return { kind: 'success', text: `Retried ${count(n)} action${n === 1 ? '' : 's'}: PENDING again, running now.${changed}${held}` };
}
