import { DynamicModule, Module } from '@nestjs/common';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { BullBoardModule } from '@bull-board/nestjs';
import { ActionTypeDefinition } from '@punctual/sdk';
import { AdminAuthMiddleware } from './admin-auth.middleware';
import { AdminAuthModule } from './admin-auth.module';
import { bullBoardHeaders } from './admin-headers';
import { WEBHOOK_QUEUE, WebhookQueueModule } from '@app/webhooks';

export const ADMIN_ROUTE = '/admin/queues';

type RenderFile = (file: string, options: object, done: (error: Error | null, html?: string) => void) => void;
/** The stylesheet link Bull Board's page template carries. */
const GOOGLE_FONTS = /<link [^>]*href="https:\/\/fonts\.googleapis\.com\/[^>]*>/g;

/**
 * Bull Board's own Express app, without the `X-Powered-By` banner the API leaves off everywhere
 * else, and with its page's Google Fonts link taken out: nothing under /admin loads anything from
 * the internet (it falls back to local fonts; its content security policy would block them too).
 */
class BoardAdapter extends ExpressAdapter {
  constructor() {
    super();
    this.app.disable('x-powered-by');
  }

  setViewsPath(viewPath: string): this {
    super.setViewsPath(viewPath);
    // Express keeps the engine it was given under `engines`, which its types leave out.
    const render = (this.app as unknown as { engines: Record<string, RenderFile> }).engines['.ejs'];
    this.app.engine('ejs', (file: string, options: object, done: (error: Error | null, html?: string) => void) =>
      render(file, options, (error, html) => done(error, html?.replace(GOOGLE_FONTS, ''))),
    );
    return this;
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
            middleware: [bullBoardHeaders, auth.handler()],
          }),
        }),
        BullBoardModule.forFeature(
          ...[...actionTypes.map((t) => t.type), WEBHOOK_QUEUE].map((name) => ({ name, adapter: BullMQAdapter, options: { readOnlyMode: true } })),
        ),
      ],
    };
  }
}
