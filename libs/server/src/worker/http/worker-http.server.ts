import { HttpException, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { IncomingMessage, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { PunctualConfig } from '@app/config';
import { PunctualMetrics } from '@app/observability';
import { WorkerReadiness } from './worker-readiness';

/**
 * The worker's only HTTP surface, on WORKER_HTTP_PORT: `/metrics` for Prometheus, `/health/live`
 * (the process runs) and `/health/ready` (see WorkerReadiness). A bare Node server: a worker needs
 * no routing, body parsing or auth for three read-only probes that carry no data.
 */
@Injectable()
export class WorkerHttpServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WorkerHttpServer.name);
  private readonly server = createServer((req, res) => void this.handle(req, res));

  constructor(
    private readonly metrics: PunctualMetrics,
    private readonly readiness: WorkerReadiness,
    private readonly config: PunctualConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.config.worker.httpPort, () => resolve());
    });
    this.logger.log(`Metrics and health on port ${this.port()} (/metrics, /health/live, /health/ready)`);
  }

  /** The bound port: WORKER_HTTP_PORT, or the one the system chose for 0. */
  port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** Stays up while the worker drains, so readiness reports it stopping; closes last. */
  async onApplicationShutdown(): Promise<void> {
    if (!this.server.listening) return;
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'GET') return send(res, 405, 'application/json', { message: 'Only GET is served here' });
    const path = new URL(req.url ?? '/', 'http://worker').pathname;
    if (path === '/metrics' && this.metrics.isEnabled) return send(res, 200, this.metrics.contentType, await this.metrics.exposition());
    if (path === '/health/live') return send(res, 200, 'application/json', { status: 'ok' });
    if (path === '/health/ready') {
      try {
        return send(res, 200, 'application/json', await this.readiness.check());
      } catch (error) {
        if (error instanceof HttpException) return send(res, error.getStatus(), 'application/json', error.getResponse());
        return send(res, 503, 'application/json', { status: 'error', message: (error as Error).message });
      }
    }
    send(res, 404, 'application/json', { message: `No ${path} here: /metrics, /health/live and /health/ready are served` });
  }
}

function send(res: ServerResponse, status: number, contentType: string, body: unknown): void {
  res.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}
