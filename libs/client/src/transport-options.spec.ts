import { Transport } from '@nestjs/microservices';
import { microserviceOptions } from './transport-options';

describe('microserviceOptions', () => {
  it('passes a NATS URL’s user and password as the connection’s, never inside the server address', () => {
    const { transport, options } = microserviceOptions('nats://team-a:p%40ss%3A1@nats.internal:4223') as {
      transport: Transport;
      options: Record<string, unknown>;
    };
    expect(transport).toBe(Transport.NATS);
    expect(options).toMatchObject({ servers: ['nats://nats.internal:4223'], user: 'team-a', pass: 'p@ss:1' });
    expect(options).not.toHaveProperty('token');
  });

  it('passes a NATS URL’s name alone as a token, and no credentials when the URL has none', () => {
    expect((microserviceOptions('nats://s3cr3t-token@127.0.0.1:4222') as { options: object }).options).toMatchObject({
      servers: ['nats://127.0.0.1:4222'],
      token: 's3cr3t-token',
    });
    const bare = (microserviceOptions('nats://127.0.0.1:4222') as { options: object }).options;
    expect(bare).toMatchObject({ servers: ['nats://127.0.0.1:4222'] });
    for (const credential of ['user', 'pass', 'token']) expect(bare).not.toHaveProperty(credential);
  });

  it('gives a NATS client the inbox prefix its user may subscribe to', () => {
    expect((microserviceOptions('nats://127.0.0.1:4223', { inboxPrefix: '_INBOX_team-a' }) as { options: object }).options).toMatchObject({
      inboxPrefix: '_INBOX_team-a',
    });
  });

  it('sends every pattern over RabbitMQ to the URL’s queue (default punctual), durable, declared unless told not to', () => {
    const { transport, options } = microserviceOptions('amqps://team-a:p%40ss@mq.internal:5671/tenants?queue=ledger&heartbeat=30') as {
      transport: Transport;
      options: Record<string, unknown>;
    };
    expect(transport).toBe(Transport.RMQ);
    expect(options).toMatchObject({
      urls: ['amqps://team-a:p%40ss@mq.internal:5671/tenants?heartbeat=30'],
      queue: 'ledger',
      queueOptions: { durable: true },
      persistent: true,
      noAssert: false,
    });
    expect((microserviceOptions('amqp://127.0.0.1', { declareQueue: false }) as { options: object }).options).toMatchObject({
      queue: 'punctual',
      noAssert: true,
    });
  });

  it('connects to MQTT with the URL as it is, credentials included', () => {
    expect(microserviceOptions('mqtts://sensor:pw@broker:8883')).toEqual({ transport: Transport.MQTT, options: { url: 'mqtts://sensor:pw@broker:8883' } });
  });

  it('refuses a URL of no transport it speaks', () => {
    expect(() => microserviceOptions('http://127.0.0.1')).toThrow(
      /^Not a redis:\/\/, rediss:\/\/, nats:\/\/, amqp:\/\/, amqps:\/\/, mqtt:\/\/ or mqtts:\/\/ URL/,
    );
  });
});
