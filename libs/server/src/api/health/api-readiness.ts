import { Injectable } from '@nestjs/common';
import { HealthCheckResult, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { Readiness, RedisHealthIndicator } from '@app/observability';

/** The API can serve when Postgres and Redis both answer. */
@Injectable()
export class ApiReadiness implements Readiness {
  constructor(
    private readonly health: HealthCheckService,
    private readonly postgres: TypeOrmHealthIndicator,
    private readonly redis: RedisHealthIndicator,
  ) {}

  check(): Promise<HealthCheckResult> {
    return this.health.check([() => this.postgres.pingCheck('postgres', { timeout: 1500 }), () => this.redis.pingCheck('redis')]);
  }
}
