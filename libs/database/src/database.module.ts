import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PunctualConfig } from '@app/config';
import { dataSourceOptions } from './data-source-options';
import { ActionsRepository } from './repositories/actions.repository';
import { ExecutionRepository } from './repositories/execution.repository';
import { HistoryRepository } from './repositories/history.repository';
import { NonceRepository } from './repositories/nonce.repository';
import { RetentionRepository } from './repositories/retention.repository';
import { ScheduleRepository } from './repositories/schedule.repository';

/** The Postgres connection and the repositories; imported once by each app's root module. */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [PunctualConfig],
      useFactory: (config: PunctualConfig) => ({
        ...dataSourceOptions(config.database.url),
        // Boot fails after a few seconds with a clear error rather than retrying for half a minute.
        retryAttempts: 2,
        retryDelay: 1000,
      }),
    }),
  ],
  providers: [ActionsRepository, ExecutionRepository, HistoryRepository, NonceRepository, RetentionRepository, ScheduleRepository],
  exports: [ActionsRepository, ExecutionRepository, HistoryRepository, NonceRepository, RetentionRepository, ScheduleRepository],
})
export class DatabaseModule {}
