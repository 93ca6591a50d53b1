import { Injectable } from '@nestjs/common';
import { HealthCheckResult, HealthCheckService, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { Readiness, RedisHealthIndicator } from '@app/observability';
import { QueueConsumers } from '../execution/queue-consumers';

/** A worker is ready when Postgres and Redis answer and its consumers take jobs (not before they start, nor once it stops). */
@Injectable()
export class WorkerReadiness implements Readiness {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly postgres: TypeOrmHealthIndicator,
    private readonly redis: RedisHealthIndicator,
    private readonly consumers: QueueConsumers,
  ) {}

  /** @throws ServiceUnavailableException, whose response names what is down. */
  check(): Promise<HealthCheckResult> {
    return this.health.check([
      () => this.postgres.pingCheck('postgres', { timeout: 1500 }),
      () => this.redis.pingCheck('redis'),
      () => {
        const indicator = this.indicators.check('consumers');
        return this.consumers.running() ? indicator.up() : indicator.down({ message: 'queue consumers are not running' });
      },
    ]);
  }
}
