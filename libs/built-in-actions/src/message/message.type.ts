import { defineActionType } from '@punctual/sdk';
import { MessageData } from './message.data';

export const MESSAGE = defineActionType({ type: 'MESSAGE', dataClass: MessageData });
