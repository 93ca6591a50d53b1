export * from './http-receiver';
export * from './signed-client';
export * from './wait-until';
