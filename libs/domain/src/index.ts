export * from './action-vocabulary';
export * from './backoff-policy';
export * from './clock';
export * from './error-code';
export * from './next-retry-delay';
export * from './schedule';
export * from './lifecycle';
export * from './tenancy';
