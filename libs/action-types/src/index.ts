export * from './action-type.registry';
export * from './action-types.module';
export * from './data-json-schema';
export * from './data-validation.error';
export * from './message-permissions';
export * from './message-transport.decorator';
export * from './transform-safe-copy';
