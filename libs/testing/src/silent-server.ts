import { Server, Socket, createServer } from 'node:net';
import { LocalTcpServer } from './local-tcp-server';

/** A TCP server on a free local port that accepts connections and never says a word, as a hung mail server would. */
export class SilentServer extends LocalTcpServer {
  private readonly sockets = new Set<Socket>();
  protected readonly server: Server = createServer((socket) => {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
  });

  /** Connections open now. */
  get connections(): number {
    return this.sockets.size;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
