import { Server, Socket, createConnection, createServer } from 'node:net';
import { LocalTcpServer } from './local-tcp-server';

/**
 * A TCP proxy on a free local port in front of a real service. `cut()` drops every
 * connection and refuses new ones, as a network partition would, without stopping the
 * service that other tests and developers share. Given several ports, it hands each new
 * connection to the next in turn, as a round-robin load balancer in front of processes would.
 */
export class TcpProxy extends LocalTcpServer {
  private readonly sockets = new Set<Socket>();
  private readonly clients = new Set<Socket>();
  private open = true;
  private turn = 0;
  protected readonly server: Server;
  /** How many connections went to each target port, in the order given. */
  readonly connectionsPerTarget: number[];

  constructor(
    private readonly targetHost: string,
    targetPorts: number | readonly number[],
  ) {
    super();
    const ports = ([] as number[]).concat(targetPorts);
    this.connectionsPerTarget = ports.map(() => 0);
    this.server = createServer((client) => {
      if (!this.open) return client.destroy();
      const target = this.turn++ % ports.length;
      this.connectionsPerTarget[target] += 1;
      this.clients.add(client);
      client.on('close', () => this.clients.delete(client));
      const upstream = createConnection(ports[target], this.targetHost);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  }

  /** Connections currently passing through: a test waits for a client to have reconnected after `restore()`. */
  get connections(): number {
    return this.clients.size;
  }

  /** `url` with its host and port replaced by the proxy's. */
  proxied(url: string): string {
    const parsed = new URL(url);
    parsed.hostname = '127.0.0.1';
    parsed.port = String(this.port);
    return parsed.toString();
  }

  cut(): void {
    this.open = false;
    for (const socket of this.sockets) socket.destroy();
  }

  restore(): void {
    this.open = true;
  }

  async stop(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
