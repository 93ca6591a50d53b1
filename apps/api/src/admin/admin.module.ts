import { DynamicModule, Module } from '@nestjs/common';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { BullBoardModule } from '@bull-board/nestjs';
import basicAuth from 'express-basic-auth';
import { PunctualConfig } from '@app/config';
import { ActionTypeDefinition } from '@app/fulfillment';

export const ADMIN_ROUTE = '/admin/queues';

/** Bull Board at /admin/queues, one entry per action-type queue, behind HTTP basic auth. */
@Module({})
export class AdminModule {
  static forRoot(actionTypes: readonly ActionTypeDefinition[]): DynamicModule {
    return {
      module: AdminModule,
      imports: [
        BullBoardModule.forRootAsync({
          inject: [PunctualConfig],
          useFactory: (config: PunctualConfig) => ({
            route: ADMIN_ROUTE,
            adapter: ExpressAdapter,
            boardOptions: { uiConfig: { boardTitle: 'Punctual' } },
            middleware: basicAuth({
              users: { [config.admin.user]: config.admin.password },
              challenge: true,
              realm: 'Punctual admin',
            }),
          }),
        }),
        BullBoardModule.forFeature(...actionTypes.map((t) => ({ name: t.type, adapter: BullMQAdapter }))),
      ],
    };
  }
}
