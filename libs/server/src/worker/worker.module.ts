import { DynamicModule, Module, Type } from '@nestjs/common';
import { ConfigModule } from '@app/config';
import { DatabaseModule } from '@app/database';
import { ActionTypeDefinition } from '@punctual/sdk';
import { BUILT_IN_ACTION_TYPES, BUILT_IN_FULFILLMENT_MODULES } from '@app/built-in-actions';
import { ActionTypesModule } from '@app/action-types';
import { ObservabilityModule } from '@app/observability';
import { SchedulingModule } from '@app/scheduling';
import { ExecutionModule } from './execution/execution.module';
import { HousekeepingModule } from './housekeeping/housekeeping.module';
import { WorkerHttpModule } from './http/worker-http.module';
import { WebhooksModule } from './webhooks/webhooks.module';

export interface WorkerModuleOptions {
  /** Every known action type (the worker serves all of them, or those in WORKER_ACTIONS). */
  actionTypes?: readonly ActionTypeDefinition[];
  /** Modules that provide the `@Fulfillment` classes. */
  fulfillmentModules?: readonly Type[];
}

@Module({})
export class WorkerModule {
  static forRoot(options: WorkerModuleOptions = {}): DynamicModule {
    const actionTypes = options.actionTypes ?? BUILT_IN_ACTION_TYPES;
    return {
      module: WorkerModule,
      imports: [
        ConfigModule,
        ObservabilityModule.forRoot(
          actionTypes.map((t) => t.type),
          'worker',
        ),
        DatabaseModule,
        ActionTypesModule.forRoot(actionTypes),
        SchedulingModule.forRoot(actionTypes),
        ...(options.fulfillmentModules ?? BUILT_IN_FULFILLMENT_MODULES),
        ExecutionModule,
        HousekeepingModule,
        WebhooksModule,
        WorkerHttpModule,
      ],
    };
  }
}
