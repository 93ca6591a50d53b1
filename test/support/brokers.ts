import { connect } from 'amqplib';

/** The RabbitMQ of the test run (`scripts/test-services.sh` makes sure it answers, as guest, on its `/` virtual host). */
export const RABBITMQ_URL = process.env.TEST_RABBITMQ_URL ?? 'amqp://127.0.0.1:5672';

/** The MQTT broker of the test run (`scripts/test-services.sh` makes sure it answers). */
export const MQTT_URL = process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';

/** The test run's Mosquitto with the users of `config/mosquitto/acl` and no anonymous clients (`config/mosquitto/dev-tenants.sh`). */
export const MQTT_TENANTS_URL = process.env.TEST_MQTT_TENANTS_URL ?? 'mqtt://127.0.0.1:1884';

/** `MQTT_TENANTS_URL` as `user` of `config/mosquitto/acl`, with its development password. */
export function mqttTenantsUrlAs(user: 'punctual' | 'billing' | 'ledger'): string {
  const url = new URL(MQTT_TENANTS_URL);
  url.username = user;
  url.password = `${user}-mqtt-dev-password`;
  return url.toString().replace(/\/$/, '');
}

/** A user of `config/rabbitmq/tenants.sh` (`scripts/test-services.sh` makes them on the run's RabbitMQ). */
export interface RabbitUser {
  user: string;
  pass: string;
}

export const RABBITMQ_USERS = {
  punctual: { user: 'punctual', pass: 'punctual-rabbitmq-dev-password' },
  teamA: { user: 'team-a', pass: 'team-a-rabbitmq-dev-password' },
  teamB: { user: 'team-b', pass: 'team-b-rabbitmq-dev-password' },
} satisfies Record<string, RabbitUser>;

/** `RABBITMQ_URL` as `user`, on the tenants' virtual host of `config/rabbitmq/tenants.sh`, with a query (`?queue=`) if given. */
export function rabbitUrlAs({ user, pass }: RabbitUser, query = ''): string {
  const url = new URL(RABBITMQ_URL);
  url.username = encodeURIComponent(user);
  url.password = encodeURIComponent(pass);
  url.pathname = '/punctual-tenants';
  return `${url.toString()}${query}`;
}

/** Deletes queues a spec declared (durable ones outlive it), as guest on the run's `/` virtual host. */
export async function deleteQueues(url: string, queues: readonly string[]): Promise<void> {
  const connection = await connect(url);
  try {
    const channel = await connection.createChannel();
    for (const queue of queues) await channel.deleteQueue(queue);
  } finally {
    await connection.close();
  }
}
