import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiSecurity, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { Summary } from '../http/api-refusals.decorator';
import { HealthCheck } from '@nestjs/terminus';
import { ApiReadiness } from './api-readiness';

/** Liveness and readiness probes. No signature needed. */
@ApiTags('health')
// No login: the probes call them as they are (an empty requirement says so to generators and linters).
@ApiSecurity({})
@Controller('health')
export class HealthController {
  constructor(private readonly readiness: ApiReadiness) {}

  /** Readiness, kept at its first address for the probes already pointing there. */
  @Get()
  @Summary('Readiness (the first address of /health/ready)')
  @HealthCheck()
  check() {
    return this.readiness.check();
  }

  /** The process runs and answers: restart it when this fails. */
  @Get('live')
  @Summary('Liveness')
  @ApiOkResponse({
    description: 'The process runs',
    schema: { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['ok'] } } },
  })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** 200 when Postgres and Redis both answer, else 503 naming the one that does not: send traffic only when this passes. */
  @Get('ready')
  @Summary('Readiness')
  @HealthCheck()
  @ApiServiceUnavailableResponse({ description: 'Postgres or Redis does not answer' })
  ready() {
    return this.readiness.check();
  }
}
