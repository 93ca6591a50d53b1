import { Controller, Get, Header, NotFoundException, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Response } from 'express';
import { PunctualMetrics } from '@app/observability';

/** The Prometheus scrape target. No signature: it carries counts and durations, never ids or data. */
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: PunctualMetrics) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  async scrape(@Res({ passthrough: true }) res: Response): Promise<string> {
    if (!this.metrics.isEnabled) throw new NotFoundException('Metrics are off (METRICS_ENABLED=false)');
    res.type(this.metrics.contentType);
    return this.metrics.exposition();
  }
}
