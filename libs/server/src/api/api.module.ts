import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule } from '@app/config';
import { DatabaseModule } from '@app/database';
import { ActionTypeDefinition } from '@punctual/sdk';
import { BUILT_IN_ACTION_TYPES } from '@app/built-in-actions';
import { ActionTypesModule } from '@app/action-types';
import { ObservabilityModule } from '@app/observability';
import { SchedulingModule } from '@app/scheduling';
import { ActionsModule } from './actions/actions.module';
import { AdminModule } from './admin/admin.module';
import { AdminApiModule } from './admin-api/admin-api.module';
import { CalendarsModule } from './calendars/calendars.module';
import { ConsoleModule } from './console/console.module';
import { HealthModule } from './health/health.module';
import { MetricsModule } from './metrics/metrics.module';
import { RpcModule } from './rpc/rpc.module';
import { WebhooksModule } from './webhooks/webhooks.module';

@Module({})
export class ApiModule {
  /** @param actionTypes the types this deployment accepts; tests add their own. */
  static forRoot(actionTypes: readonly ActionTypeDefinition[] = BUILT_IN_ACTION_TYPES): DynamicModule {
    return {
      module: ApiModule,
      imports: [
        ConfigModule,
        ObservabilityModule.forRoot(
          actionTypes.map((t) => t.type),
          'api',
        ),
        DatabaseModule,
        ActionTypesModule.forRoot(actionTypes),
        SchedulingModule.forRoot(actionTypes),
        ActionsModule,
        WebhooksModule,
        CalendarsModule,
        RpcModule,
        AdminModule.forRoot(actionTypes),
        AdminApiModule,
        ConsoleModule,
        HealthModule,
        MetricsModule,
      ],
    };
  }
}
