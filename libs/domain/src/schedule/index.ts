export * from './cron-expression';
export * from './schedule';
export * from './zoned-time';
