import { DynamicModule, Global, Module } from '@nestjs/common';
import { PunctualConfig } from '@app/config';
import { EgressPolicy, OutboundModule } from '@app/outbound';
import { BUILT_IN_ACTION_TYPES } from '../action-types/built-in-action-types';
import { ActionTypeDefinition } from './action-type-definition';
import { ActionTypeRegistry } from './action-type.registry';

/**
 * Provides the `ActionTypeRegistry`, judging outbound URLs by `OUTBOUND_ALLOWED_HOSTS` and message
 * transports by `MESSAGE_TRANSPORTS`; tests and custom builds pass extra types.
 */
@Global()
@Module({})
export class ActionTypesModule {
  static forRoot(types: readonly ActionTypeDefinition[] = BUILT_IN_ACTION_TYPES): DynamicModule {
    return {
      module: ActionTypesModule,
      imports: [OutboundModule],
      providers: [
        {
          provide: ActionTypeRegistry,
          inject: [EgressPolicy, PunctualConfig],
          useFactory: (egress: EgressPolicy, config: PunctualConfig) => new ActionTypeRegistry(types, egress, [...config.message.transports.keys()]),
        },
      ],
      exports: [ActionTypeRegistry],
    };
  }
}
