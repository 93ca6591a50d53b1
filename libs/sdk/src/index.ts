export * from './action-type';
export * from './fulfillment.decorator';
export * from './fulfillment.errors';
export * from './fulfillment.interface';
export * from './outbound-url.decorator';
export * from './url-user-info';
