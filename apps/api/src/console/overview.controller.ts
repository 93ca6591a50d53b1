import { Controller, Get, Header, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ConsoleExceptionFilter } from './console-exception.filter';
import { OverviewService } from './overview.service';
import { HTML_CONTENT_TYPE, layout } from './views/layout.view';
import { overviewView } from './views/overview.view';

/** `/admin`: counts, overdue actions and the last hour. */
@ApiExcludeController()
@Controller('admin')
@UseFilters(ConsoleExceptionFilter)
export class OverviewController {
  constructor(private readonly overview: OverviewService) {}

  @Get()
  @Header('Content-Type', HTML_CONTENT_TYPE)
  async show(): Promise<string> {
    return layout({ title: 'Overview', section: 'overview', body: overviewView(await this.overview.overview()) });
  }
}
