import { Webhook } from 'standardwebhooks';
import { standardWebhookHeaders } from './standard-webhook-signature';

describe('standardWebhookHeaders', () => {
  const key = Buffer.from('test-secret-0123456789', 'utf8');
  const timestamp = new Date();
  const receiver = new Webhook(key.toString('base64'));

  it('produces headers that a Standard Webhooks receiver verifies', () => {
    const body = '{"hello":"world"}';
    const headers = standardWebhookHeaders({ id: 'a1b2:3', timestamp, body }, key);
    expect(headers['webhook-id']).toBe('a1b2:3');
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(timestamp.getTime() / 1000)));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(receiver.verify(body, { ...headers })).toEqual({ hello: 'world' });
  });

  it('signs an empty body, and any change of body, id or key breaks the signature', () => {
    const headers = { ...standardWebhookHeaders({ id: 'a1b2:3', timestamp, body: '' }, key) };
    expect(() => receiver.verify('', headers, { jsonParse: false })).not.toThrow();
    expect(() => receiver.verify('x', headers, { jsonParse: false })).toThrow('No matching signature found');
    expect(() => receiver.verify('', { ...headers, 'webhook-id': 'a1b2:4' }, { jsonParse: false })).toThrow('No matching signature found');
    const otherKey = new Webhook(Buffer.from('another-secret', 'utf8').toString('base64'));
    expect(() => otherKey.verify('', headers, { jsonParse: false })).toThrow('No matching signature found');
  });
});
