import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { CalendarsModule } from '../calendars/calendars.module';
import { ActionsModule } from '../actions/actions.module';
import { AdminAuthMiddleware } from '../admin/admin-auth.middleware';
import { AdminAuthModule } from '../admin/admin-auth.module';
import { AdminApiModule } from '../admin-api/admin-api.module';
import { ActionPageService } from './action-page.service';
import { ActionPagesController } from './action-pages.controller';
import { CalendarPagesController } from './calendar-pages.controller';
import { ConsoleAssetsController } from './console-assets.controller';
import { DeadLettersController } from './dead-letters.controller';
import { LastHourActivity } from './last-hour-activity';
import { OverviewController } from './overview.controller';
import { OverviewService } from './overview.service';
import { ConsoleTenants } from './tenant-filter';
import { TenantPagesController } from './tenant-pages.controller';
import { WebhookPagesController } from './webhook-pages.controller';
import { WorkersController } from './workers.controller';
import { consoleHeaders } from './security/console-headers.middleware';
import { ConsoleSessionMiddleware } from './security/console-session.middleware';
import { CsrfGuard } from './security/csrf.guard';
import { CsrfTokens } from './security/csrf-tokens';

const CONTROLLERS = [
  OverviewController,
  ActionPagesController,
  DeadLettersController,
  WebhookPagesController,
  CalendarPagesController,
  TenantPagesController,
  WorkersController,
  ConsoleAssetsController,
];

/**
 * The operator console at /admin: server-rendered pages over the same services as the REST API
 * and the admin API, behind the admin basic auth and its limit on failed logins, with CSRF
 * protection on every change. Operators see every tenant; each page can be limited to one.
 * Bull Board keeps /admin/queues; no console route lives under it.
 */
@Module({
  imports: [AdminAuthModule, AdminApiModule, ActionsModule, WebhooksModule, CalendarsModule],
  controllers: CONTROLLERS,
  providers: [OverviewService, LastHourActivity, ActionPageService, ConsoleTenants, CsrfTokens, CsrfGuard],
})
export class ConsoleModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(consoleHeaders, AdminAuthMiddleware, ConsoleSessionMiddleware).forRoutes(...CONTROLLERS);
  }
}
