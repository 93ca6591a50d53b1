import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { Readiness, ReadinessGauge, RedisHealthIndicator } from '@app/observability';
import { ExecutionModule } from '../execution/execution.module';
import { WorkerHttpServer } from './worker-http.server';
import { WorkerReadiness } from './worker-readiness';

@Module({
  imports: [TerminusModule.forRoot({ logger: false }), ExecutionModule],
  providers: [RedisHealthIndicator, WorkerReadiness, { provide: Readiness, useExisting: WorkerReadiness }, ReadinessGauge, WorkerHttpServer],
})
export class WorkerHttpModule {}
