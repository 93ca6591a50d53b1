import { defineActionType } from '../../registry/action-type-definition';
import { MessageData } from './message.data';

export const MESSAGE = defineActionType({ type: 'MESSAGE', dataClass: MessageData });
