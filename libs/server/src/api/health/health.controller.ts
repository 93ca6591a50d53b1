import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheck } from '@nestjs/terminus';
import { ApiReadiness } from './api-readiness';

/** Liveness and readiness probes. No signature needed. */
@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly readiness: ApiReadiness) {}

  /** Readiness, kept at its first address for the probes already pointing there. */
  @Get()
  @HealthCheck()
  check() {
    return this.readiness.check();
  }

  /** The process runs and answers: restart it when this fails. */
  @Get('live')
  @ApiOkResponse({ description: 'The process runs' })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** 200 when Postgres and Redis both answer, else 503 naming the one that does not: send traffic only when this passes. */
  @Get('ready')
  @HealthCheck()
  @ApiServiceUnavailableResponse({ description: 'Postgres or Redis does not answer' })
  ready() {
    return this.readiness.check();
  }
}
