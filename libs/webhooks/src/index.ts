export * from './subscription-secret';
export * from './webhook-body';
export * from './webhook-job';
export * from './webhook-target';
export * from './webhook-queue.module';
export * from './delivery-queue';
