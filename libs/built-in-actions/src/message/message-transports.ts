import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { ClientProxy, ClientProxyFactory } from '@nestjs/microservices';
import { microserviceOptions } from '@punctual/client';
import { PunctualConfig } from '@app/config';

/**
 * One `ClientProxy` per transport of `MESSAGE_TRANSPORTS`, created once and shared by every
 * MESSAGE attempt of this worker. A proxy connects on its first message and reconnects by itself.
 */
@Injectable()
export class MessageTransports implements OnApplicationShutdown {
  private readonly proxies = new Map<string, ClientProxy>();

  constructor(config: PunctualConfig) {
    for (const [name, transport] of config.message.transports) this.proxies.set(name, ClientProxyFactory.create(microserviceOptions(transport)));
  }

  /** The proxy of a configured transport, or undefined for a name this worker does not configure. */
  get(name: string): ClientProxy | undefined {
    return this.proxies.get(name);
  }

  /** After the consumers stopped and running attempts finished (shutdown runs after module destruction). */
  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.proxies.values()].map((proxy): Promise<unknown> => Promise.resolve(proxy.close())));
  }
}
