import { ActionTypeDefinition } from '@punctual/sdk';
import { HTTP_REQUEST } from './http-request/http-request.type';
import { MESSAGE } from './message/message.type';
import { SEND_NOTIFICATION } from './send-notification/send-notification.type';

/** The types every deployment knows. A new type adds its definition here and a fulfillment module in the worker. */
export const BUILT_IN_ACTION_TYPES: readonly ActionTypeDefinition[] = [HTTP_REQUEST, SEND_NOTIFICATION, MESSAGE];
