export * from './action-type';
export * from './fulfillment.decorator';
export * from './fulfillment.errors';
export * from './fulfillment.interface';
