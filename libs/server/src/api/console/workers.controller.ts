import { Controller, Get, Header, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { WorkersRepository } from '@app/database';
import { ConsoleExceptionFilter } from './console-exception.filter';
import { HTML_CONTENT_TYPE, layout } from './views/layout.view';
import { workersView } from './views/workers.view';

/** `/admin/workers`: every live worker with the types it knows and serves. */
@ApiExcludeController()
@Controller('admin/workers')
@UseFilters(ConsoleExceptionFilter)
export class WorkersController {
  constructor(private readonly workers: WorkersRepository) {}

  @Get()
  @Header('Content-Type', HTML_CONTENT_TYPE)
  async index(): Promise<string> {
    return layout({ title: 'Workers', section: 'workers', body: workersView(await this.workers.live()) });
  }
}
