import { Agent, request } from 'node:http';
import { signRequest } from '@punctual/contract';

/**
 * Signed JSON requests over kept-alive connections. The load generator shares the machine
 * with what it measures, so it is kept lean: node:http with a socket pool, not fetch.
 */
export class BenchClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 128 });

  constructor(
    private readonly port: number,
    private readonly key: { keyId: string; secret: string },
  ) {}

  /** `headers` adds to the signed ones, e.g. an `Idempotency-Key` that makes a create safe to send again. */
  post<T = any>(path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: T }> {
    return this.send('POST', path, JSON.stringify(body), headers);
  }

  put<T = any>(path: string, body: unknown): Promise<{ status: number; body: T }> {
    return this.send('PUT', path, JSON.stringify(body));
  }

  get<T = any>(path: string): Promise<{ status: number; body: T }> {
    return this.send('GET', path, '');
  }

  private send<T>(method: string, path: string, raw: string, extra: Record<string, string> = {}): Promise<{ status: number; body: T }> {
    const headers = {
      ...extra,
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(raw)),
      ...signRequest({ ...this.key, method, pathWithQuery: path, body: raw }),
    };
    return new Promise((resolve, reject) => {
      const outgoing = request({ host: '127.0.0.1', port: this.port, path, method, agent: this.agent, headers }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('error', reject); // the process answering died mid-answer
        response.on('end', () => {
          try {
            resolve({ status: response.statusCode ?? 0, body: (text ? JSON.parse(text) : undefined) as T });
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error))); // a proxy or a dying process may answer something that is not JSON
          }
        });
      });
      outgoing.on('error', reject);
      outgoing.end(raw);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
