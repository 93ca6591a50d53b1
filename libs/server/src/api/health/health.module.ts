import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { Readiness, ReadinessGauge, RedisHealthIndicator } from '@app/observability';
import { ApiReadiness } from './api-readiness';
import { HealthController } from './health.controller';

@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController],
  providers: [RedisHealthIndicator, ApiReadiness, { provide: Readiness, useExisting: ApiReadiness }, ReadinessGauge],
})
export class HealthModule {}
