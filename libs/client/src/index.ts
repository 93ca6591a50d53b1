export * from './http/signed-http';
export * from './punctual-client';
export * from './punctual-error';
export * from './resources';
export * from './rpc/rpc-patterns';
export * from './rpc/signed-rpc';
export * from './transport-options';
