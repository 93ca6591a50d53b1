import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PunctualConfig } from '@app/config';
import { dataSourceOptions } from './data-source-options';
import { ActionCountsRepository } from './repositories/action-counts.repository';
import { ActionsRepository } from './repositories/actions.repository';
import { CalendarsRepository } from './repositories/calendars.repository';
import { TenantsRepository } from './repositories/tenants.repository';
import { ActivityRepository } from './repositories/activity.repository';
import { ExecutionRepository } from './repositories/execution.repository';
import { LifecycleStore } from './lifecycle-store/lifecycle.store';
import { CLAIM_LEASES, LIFECYCLE_STORE } from './ports/lifecycle-store.port';
import { SCHEDULE_STORE } from './ports/schedule-store.port';
import { GaugeRepository } from './repositories/gauge.repository';
import { HistoryRepository } from './repositories/history.repository';
import { NonceRepository } from './repositories/nonce.repository';
import { PartitionsRepository } from './repositories/partitions.repository';
import { RetentionRepository } from './repositories/retention.repository';
import { ScheduleRepository } from './repositories/schedule.repository';
import { WebhookDeliveriesRepository } from './repositories/webhook-deliveries.repository';
import { WebhooksRepository } from './repositories/webhooks.repository';
import { WorkersRepository } from './repositories/workers.repository';

const REPOSITORIES = [
  ActionCountsRepository,
  ActionsRepository,
  ActivityRepository,
  CalendarsRepository,
  ExecutionRepository,
  LifecycleStore,
  GaugeRepository,
  HistoryRepository,
  NonceRepository,
  PartitionsRepository,
  RetentionRepository,
  ScheduleRepository,
  TenantsRepository,
  WebhookDeliveriesRepository,
  WebhooksRepository,
  WorkersRepository,
];

/** The ports the orchestration classes are given, answered by the Postgres implementations. */
const PORTS = [
  { provide: LIFECYCLE_STORE, useExisting: LifecycleStore },
  { provide: CLAIM_LEASES, useExisting: ExecutionRepository },
  { provide: SCHEDULE_STORE, useExisting: ScheduleRepository },
];

/** The Postgres connection and the repositories; imported once by each app's root module. */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [PunctualConfig],
      useFactory: (config: PunctualConfig) => ({
        ...dataSourceOptions(config.database.url, {
          poolSize: config.database.poolSize,
          statementTimeoutMs: config.database.statementTimeoutMs,
        }),
        // Boot fails after a few seconds with a clear error rather than retrying for half a minute.
        retryAttempts: 2,
        retryDelay: 1000,
      }),
    }),
  ],
  providers: [...REPOSITORIES, ...PORTS],
  exports: [...REPOSITORIES, ...PORTS],
})
export class DatabaseModule {}
