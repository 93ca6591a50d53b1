export * from './observability.module';
export * from './metrics/punctual-metrics';
export * from './logging/field-logger';
export * from './logging/json-logger';
export * from './tracing/tracing';
export * from './tracing/bullmq-telemetry';
export * from './health/redis.health';
export * from './health/readiness';
