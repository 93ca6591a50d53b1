export * from './action-job';
export * from './action-queues';
export * from './action-queues.port';
export * from './action-scheduler';
export * from './action-promoter';
export * from './scheduling.module';
export * from './queue-connection';
