import { Module } from '@nestjs/common';
import { AdminAuthMiddleware } from './admin-auth.middleware';
import { AdminLoginLimiter } from './admin-login-limiter';

/**
 * The admin login and its limit on failures, for every module serving something under /admin:
 * `consumer.apply(AdminAuthMiddleware)` in its `configure()`. Imported anywhere, it keeps one
 * limiter (one Redis connection) per process.
 */
@Module({
  providers: [AdminLoginLimiter, AdminAuthMiddleware],
  exports: [AdminLoginLimiter, AdminAuthMiddleware],
})
export class AdminAuthModule {}
