import { defineActionType } from '../../registry/action-type-definition';
import { HttpRequestData } from './http-request.data';

export const HTTP_REQUEST = defineActionType({ type: 'HTTP_REQUEST', dataClass: HttpRequestData });
