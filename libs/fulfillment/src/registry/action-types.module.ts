import { DynamicModule, Global, Module } from '@nestjs/common';
import { BUILT_IN_ACTION_TYPES } from '../action-types/built-in-action-types';
import { ActionTypeDefinition } from './action-type-definition';
import { ActionTypeRegistry } from './action-type.registry';

/** Provides the `ActionTypeRegistry`; tests and custom builds pass extra types. */
@Global()
@Module({})
export class ActionTypesModule {
  static forRoot(types: readonly ActionTypeDefinition[] = BUILT_IN_ACTION_TYPES): DynamicModule {
    return {
      module: ActionTypesModule,
      providers: [{ provide: ActionTypeRegistry, useValue: new ActionTypeRegistry(types) }],
      exports: [ActionTypeRegistry],
    };
  }
}
