import { DataSourceOptions } from 'typeorm';
import { ActionHistoryEntity } from './entities/action-history.entity';
import { ActionEntity } from './entities/action.entity';
import { IdempotencyKeyEntity } from './entities/idempotency-key.entity';
import { InitialSchema1763870000000 } from './migrations/1763870000000-initial-schema';

export const ENTITIES = [ActionEntity, ActionHistoryEntity, IdempotencyKeyEntity];
export const MIGRATIONS = [InitialSchema1763870000000];

/** Connection options shared by the apps, the migration runner and the tests. The schema comes from migrations only. */
export function dataSourceOptions(url: string): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    synchronize: false,
    migrationsRun: false,
    // Fail fast instead of hanging when Postgres is unreachable.
    extra: { connectionTimeoutMillis: 2000, max: 20 },
  };
}
