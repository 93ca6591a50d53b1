export * from './cron-expression';
export * from './cron-syntax';
export * from './dst-policy';
export * from './schedule';
export * from './zoned-time';
export * from './calendar';
export * from './repeat-interval';
