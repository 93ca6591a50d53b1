import { DataSourceOptions } from 'typeorm';
import { ActionHistoryEntity } from './entities/action-history.entity';
import { ActionEntity } from './entities/action.entity';
import { IdempotencyKeyEntity } from './entities/idempotency-key.entity';
import { InitialSchema1763870000000 } from './migrations/1763870000000-initial-schema';
import { RequestHashAndStatusCounts1763870000100 } from './migrations/1763870000100-request-hash-and-status-counts';
import { ClaimLeaseAndCreator1763870000200 } from './migrations/1763870000200-claim-lease-and-creator';
import { CalendarSchedules1763870000500 } from './migrations/1763870000500-calendar-schedules';
import { HistoryDueAtAndTimeIndex1763870000700 } from './migrations/1763870000700-history-due-at-and-time-index';
import { LifecycleWebhooks1763870000800 } from './migrations/1763870000800-lifecycle-webhooks';
import { CancelAndSigningKeys1763870000900 } from './migrations/1763870000900-cancel-and-signing-keys';
import { Pause1763870001000 } from './migrations/1763870001000-pause';
import { SkipsAndJitter1763870001100 } from './migrations/1763870001100-skips-and-jitter';
import { DstPolicy1763870001200 } from './migrations/1763870001200-dst-policy';
import { RedeliveryRetries1763870001300 } from './migrations/1763870001300-redelivery-retries';
import { HolidayCalendars1763870001400 } from './migrations/1763870001400-holiday-calendars';
import { TenantScope1763870001500 } from './migrations/1763870001500-tenant-scope';
import { TenantsAndKeys1763870001600 } from './migrations/1763870001600-tenants-and-keys';
import { WeeklyPartitions1763870001700 } from './migrations/1763870001700-weekly-partitions';
import { TenantMessaging1763870001800 } from './migrations/1763870001800-tenant-messaging';
import { SkippedOccurrenceTimes1763870001860 } from './migrations/1763870001860-skipped-occurrence-times';
import { WorkerFleet1763870001900 } from './migrations/1763870001900-worker-fleet';
import { RunnableSince1763870001910 } from './migrations/1763870001910-runnable-since';
import { DataAsSent1763870001920 } from './migrations/1763870001920-data-as-sent';
import { KeptCreationEntries1763870001930 } from './migrations/1763870001930-kept-creation-entries';
import { KeyReveals1763870001940 } from './migrations/1763870001940-key-reveals';
import { HistoryEvents1763870001950 } from './migrations/1763870001950-history-events';
import { WebhookRouting1763870001960 } from './migrations/1763870001960-webhook-routing';
import { DeliveryClaimToken1763870001980 } from './migrations/1763870001980-delivery-claim-token';

export const ENTITIES = [ActionEntity, ActionHistoryEntity, IdempotencyKeyEntity];
export const MIGRATIONS = [
  InitialSchema1763870000000,
  RequestHashAndStatusCounts1763870000100,
  ClaimLeaseAndCreator1763870000200,
  CalendarSchedules1763870000500,
  HistoryDueAtAndTimeIndex1763870000700,
  LifecycleWebhooks1763870000800,
  CancelAndSigningKeys1763870000900,
  Pause1763870001000,
  SkipsAndJitter1763870001100,
  DstPolicy1763870001200,
  RedeliveryRetries1763870001300,
  HolidayCalendars1763870001400,
  TenantScope1763870001500,
  TenantsAndKeys1763870001600,
  WeeklyPartitions1763870001700,
  TenantMessaging1763870001800,
  SkippedOccurrenceTimes1763870001860,
  WorkerFleet1763870001900,
  RunnableSince1763870001910,
  DataAsSent1763870001920,
  KeptCreationEntries1763870001930,
  KeyReveals1763870001940,
  HistoryEvents1763870001950,
  WebhookRouting1763870001960,
  DeliveryClaimToken1763870001980,
];

/** How many connections a process may open, and how long one statement may run (0: no limit). */
export interface ConnectionLimits {
  poolSize: number;
  statementTimeoutMs: number;
}

/** Migrations run one at a time and may rewrite whole tables: no statement timeout. */
const MIGRATION_LIMITS: ConnectionLimits = { poolSize: 2, statementTimeoutMs: 0 };

/**
 * How long opening a connection may take. A refused or reset connection fails at once whatever this is; the limit
 * is for a host that does not answer. Postgres starting a backend on a saturated machine can take seconds, which
 * must not fail a request.
 */
export const CONNECT_TIMEOUT_MS = 10_000;

/** Connection options shared by the apps, the migration runner and the tests. The schema comes from migrations only. */
export function dataSourceOptions(url: string, limits: ConnectionLimits = MIGRATION_LIMITS): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    synchronize: false,
    migrationsRun: false,
    extra: {
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      max: limits.poolSize,
      // Set per connection at startup; Postgres cancels the statement (SQLSTATE 57014) and the API answers 503.
      statement_timeout: limits.statementTimeoutMs || undefined,
    },
  };
}
