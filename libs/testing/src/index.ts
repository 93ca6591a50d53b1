export * from './http-receiver';
export * from './signed-client';
export * from './smtp-receiver';
export * from './wait-until';
