import { GRPC } from './grpc/grpc.type';
import { HTTP_REQUEST } from './http-request/http-request.type';
import { MESSAGE } from './message/message.type';
import { SEND_NOTIFICATION } from './send-notification/send-notification.type';
import { dataJsonSchema } from '@app/action-types';

describe('dataJsonSchema', () => {
  it('publishes what the validators check: types, bounds, enums, required and optional fields', () => {
    expect(dataJsonSchema(MESSAGE.dataClass)).toEqual({
      type: 'object',
      properties: {
        pattern: { type: 'string', minLength: 1, maxLength: 200 },
        payload: {},
        transport: { type: 'string' },
        expectReply: { type: 'boolean' },
        timeoutMs: { type: 'integer', minimum: 1, maximum: 120000 },
      },
      required: ['pattern'],
      additionalProperties: false,
    });
  });

  it('reads custom validators and channel-dependent fields', () => {
    const http = dataJsonSchema(HTTP_REQUEST.dataClass);
    expect(http.required).toEqual(['url']);
    expect(http.properties).toMatchObject({
      url: { type: 'string', format: 'uri' },
      headers: { type: 'object', additionalProperties: { type: 'string' }, description: expect.stringContaining('Host, Forwarded, X-Forwarded-*') },
    });
    const notification = dataJsonSchema(SEND_NOTIFICATION.dataClass);
    expect(notification.required).toEqual(['notificationType', 'templateType', 'subject', 'name']);
    expect(notification.properties).toMatchObject({ notificationType: { enum: ['SMS', 'EMAIL', 'PUSH'] }, email: { type: 'string', format: 'email' } });
    const grpc = dataJsonSchema(GRPC.dataClass);
    expect(grpc.required).toEqual(['target', 'service', 'method', 'message']);
    expect(grpc.properties).toMatchObject({
      target: { type: 'string', description: expect.stringContaining('host:port') },
      service: { type: 'string', maxLength: 256, pattern: expect.any(String) },
      message: { type: 'object' },
      metadata: { type: 'object', additionalProperties: { type: 'string' } },
      tls: { type: 'boolean' },
    });
  });
});
