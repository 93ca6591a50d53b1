export * from './actions';
export * from './calendars';
export * from './error-body';
export * from './message-signature';
export * from './rpc';
export * from './sign-request';
export * from './transport-url';
export * from './webhooks';
