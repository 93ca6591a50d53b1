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
});
