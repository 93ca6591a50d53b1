export * from './http-receiver';
export * from './signed-client';
export * from './smtp-receiver';
export * from './tcp-proxy';
export * from './wait-until';
