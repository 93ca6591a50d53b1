import { Controller, Get, Header, Query, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ConsoleExceptionFilter } from './console-exception.filter';
import { RawInput } from './console-input';
import { OverviewService } from './overview.service';
import { ConsoleTenants } from './tenant-filter';
import { HTML_CONTENT_TYPE, layout } from './views/layout.view';
import { overviewView } from './views/overview.view';

/** `/admin`: counts (of every tenant, or of the one `?tenant=` names), overdue actions and the last hour. */
@ApiExcludeController()
@Controller('admin')
@UseFilters(ConsoleExceptionFilter)
export class OverviewController {
  constructor(
    private readonly overview: OverviewService,
    private readonly tenants: ConsoleTenants,
  ) {}

  @Get()
  @Header('Content-Type', HTML_CONTENT_TYPE)
  async show(@Query() query: RawInput): Promise<string> {
    const tenant = await this.tenants.filter(query);
    const data = { ...(await this.overview.overview(tenant.scope)), tenant };
    return layout({ title: 'Overview', section: 'overview', tenant: tenant.selected, body: overviewView(data) });
  }
}
