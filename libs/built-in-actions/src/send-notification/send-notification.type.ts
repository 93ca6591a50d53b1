import { defineActionType } from '@punctual/sdk';
import { SendNotificationData } from './send-notification.data';

export const SEND_NOTIFICATION = defineActionType({ type: 'SEND_NOTIFICATION', dataClass: SendNotificationData });
