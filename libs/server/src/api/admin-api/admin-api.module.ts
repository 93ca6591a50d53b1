import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { SignatureModule } from '@app/signature';
import { AdminAuthMiddleware } from '../admin/admin-auth.middleware';
import { AdminAuthModule } from '../admin/admin-auth.module';
import { adminHeaders } from '../admin/admin-headers';
import { jsonBodiesOnly } from './json-bodies-only';
import { refuseCrossSite } from './refuse-cross-site';
import { TenantsAdminController } from './tenants-admin.controller';
import { TenantsAdminService } from './tenants-admin.service';

/**
 * The admin JSON API, behind the admin login like the console. A page on another site can make a
 * browser send a request with the admin's cached login, so what a browser marks as cross-site is
 * refused, and changes take JSON bodies only (or none): a browser sends a JSON body across sites
 * only after asking first (CORS), which Punctual never allows.
 */
@Module({
  imports: [SignatureModule, AdminAuthModule],
  controllers: [TenantsAdminController],
  providers: [TenantsAdminService],
  exports: [TenantsAdminService],
})
export class AdminApiModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(AdminAuthMiddleware, adminHeaders, refuseCrossSite, jsonBodiesOnly).forRoutes(TenantsAdminController);
  }
}
