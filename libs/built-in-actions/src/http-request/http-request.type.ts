import { defineActionType } from '@punctual/sdk';
import { HttpRequestData } from './http-request.data';

export const HTTP_REQUEST = defineActionType({ type: 'HTTP_REQUEST', dataClass: HttpRequestData });
