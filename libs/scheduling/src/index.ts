export * from './clock';
export * from './action-job';
export * from './action-queues';
export * from './action-promoter';
export * from './backoff.policy';
export * from './recurrence';
export * from './retry-policy';
export * from './scheduling.module';
