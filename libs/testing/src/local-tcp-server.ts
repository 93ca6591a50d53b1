import { AddressInfo, Server } from 'node:net';

/** A TCP server that a test runs on a free port of 127.0.0.1. */
export abstract class LocalTcpServer {
  protected abstract readonly server: Server;

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }
}
