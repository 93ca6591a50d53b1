export * from './egress/egress-policy';
export { ipv6Words } from './egress/ip-address';
export * from './client/host-resolver';
export * from './client/outbound.errors';
export * from './client/outbound-client';
export * from './client/url-user-info';
export * from './signing/standard-webhook-signature';
export * from './outbound.module';
