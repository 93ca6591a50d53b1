import { DynamicModule, Module } from '@nestjs/common';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { BullBoardModule } from '@bull-board/nestjs';
import { ActionTypeDefinition } from '@punctual/sdk';
import { AdminAuthMiddleware } from './admin-auth.middleware';
import { AdminAuthModule } from './admin-auth.module';
import { adminHeaders } from './admin-headers';
import { WEBHOOK_QUEUE, WebhookQueueModule } from '@app/webhooks';

export const ADMIN_ROUTE = '/admin/queues';

/** Bull Board's own Express app, without the `X-Powered-By` banner the API leaves off everywhere else. */
class BoardAdapter extends ExpressAdapter {
  constructor() {
    super();
    this.app.disable('x-powered-by');
  }
}

/**
 * Bull Board at /admin/queues, one entry per action-type queue, with the headers of
 * every admin page, behind the admin login (and its limit on failed logins, counted together
 * with the console's). Read-only:
 * Postgres decides what runs and when, so promoting, retrying or removing jobs by hand is refused.
 */
@Module({})
export class AdminModule {
  static forRoot(actionTypes: readonly ActionTypeDefinition[]): DynamicModule {
    return {
      module: AdminModule,
      imports: [
        WebhookQueueModule,
        BullBoardModule.forRootAsync({
          imports: [AdminAuthModule],
          inject: [AdminAuthMiddleware],
          useFactory: (auth: AdminAuthMiddleware) => ({
            route: ADMIN_ROUTE,
            adapter: BoardAdapter,
            // The console at /admin shows the actions behind these jobs; its menu links back here.
            boardOptions: { uiConfig: { boardTitle: 'Punctual', miscLinks: [{ text: 'Punctual console', url: '/admin' }] } },
            middleware: [adminHeaders, auth.handler()],
          }),
        }),
        BullBoardModule.forFeature(
          ...[...actionTypes.map((t) => t.type), WEBHOOK_QUEUE].map((name) => ({ name, adapter: BullMQAdapter, options: { readOnlyMode: true } })),
        ),
      ],
    };
  }
}
