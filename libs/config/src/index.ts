export * from './backoff-policy';
export * from './config.module';
export * from './load-config';
export * from './punctual-config';
export * from './log-levels';
export * from './redis-options';
export * from './graceful-shutdown';
