import { defineActionType } from '../../registry/action-type-definition';
import { SendNotificationData } from './send-notification.data';

export const SEND_NOTIFICATION = defineActionType({ type: 'SEND_NOTIFICATION', dataClass: SendNotificationData });
