// `@app/server`: the parts of the API's and the worker's module trees that this repository's own specs
// boot, replace or call directly. Not the package's API (index.ts, which the package exports alone):
// a project starts Punctual with `runApi` and `runWorker`.
export { ApiModule } from './api/api.module';
export { configureApiApp } from './api/http/configure-api-app';
export { connectRpc } from './api/rpc/connect-rpc';
export { connectGrpc } from './api/grpc/connect-grpc';
export { signTryItOut } from './api/http/try-it-out-signer';
export { AdminAuthMiddleware } from './api/admin/admin-auth.middleware';
export { AdminLoginLimiter } from './api/admin/admin-login-limiter';
export { LastHourActivity } from './api/console/last-hour-activity';
export { WorkerModule } from './worker/worker.module';
export { WorkerHttpServer } from './worker/http/worker-http.server';
export { QueueConsumers } from './worker/execution/queue-consumers';
export { WorkerPresence } from './worker/execution/worker-presence';
export { RetentionLoop } from './worker/housekeeping/retention.loop';
export { PromotionLoop } from './worker/housekeeping/promotion.loop';
export { WebhookSweepLoop } from './worker/webhooks/webhook-sweep.loop';
