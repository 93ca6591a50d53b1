import { DynamicModule, Global, Module } from '@nestjs/common';
import { PunctualConfig } from '@app/config';
import { EgressPolicy, OutboundModule } from '@app/outbound';
import { ActionTypeDefinition } from '@punctual/sdk';
import { ActionTypeRegistry } from './action-type.registry';
import { MessagePermissions } from './message-permissions';

/**
 * Provides the `ActionTypeRegistry`, judging outbound URLs by `OUTBOUND_ALLOWED_HOSTS` and message
 * transports by `MESSAGE_TRANSPORTS`, and `MessagePermissions`, judging messages by their tenant's
 * grant; tests and custom builds pass extra types.
 */
@Global()
@Module({})
export class ActionTypesModule {
  static forRoot(types: readonly ActionTypeDefinition[]): DynamicModule {
    return {
      module: ActionTypesModule,
      imports: [OutboundModule],
      providers: [
        {
          provide: ActionTypeRegistry,
          inject: [EgressPolicy, PunctualConfig],
          useFactory: (egress: EgressPolicy, config: PunctualConfig) => {
            const transports = [...config.message.transports];
            return new ActionTypeRegistry(
              types,
              egress,
              transports.map(([name]) => name),
              transports.filter(([, url]) => url.kind === 'mqtt').map(([name]) => name),
            );
          },
        },
        MessagePermissions,
      ],
      exports: [ActionTypeRegistry, MessagePermissions],
    };
  }
}
