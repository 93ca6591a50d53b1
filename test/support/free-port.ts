import { createServer } from 'node:net';

/** A TCP port nothing listens on right now, for a process a spec starts (a random pick can collide). */
export function freePort(): Promise<string> {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(String(port)));
    });
  });
}
