// The wire types, RPC patterns and signing function come with the client, so one import serves.
export * from '@punctual/contract';
export * from './admin/punctual-admin';
export * from './grpc/signed-grpc';
export * from './http/signed-http';
export * from './punctual-client';
export * from './punctual-error';
export * from './rpc/signed-rpc';
export * from './transport-options';
export * from './verify-message';
