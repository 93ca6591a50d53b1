import { TcpProxy } from '@app/testing';
import { BenchClient } from '../bench/bench-client';
import { BuiltProcess } from '../bench/child-processes';
import { freePort } from '../bench/harness';
import { SOAK_APP_ENV, SOAK_KEY } from './soak-env';

const API_SCRIPT = 'dist/apps/api/src/main.js';
const WORKER_SCRIPT = 'dist/apps/worker/src/main.js';
/** A process boots slowly on a machine busy with the soak. */
const BOOT_TIMEOUT_MS = 90_000;

const answersReady = (port: number) => async () => (await fetch(`http://127.0.0.1:${port}/health/ready`)).status === 200;

async function startApi(env: Record<string, string>, port: number): Promise<BuiltProcess> {
  return new BuiltProcess(API_SCRIPT, { ...env, PORT: String(port) }).ready(answersReady(port), BOOT_TIMEOUT_MS);
}

async function startWorker(env: Record<string, string>): Promise<BuiltProcess> {
  const port = await freePort();
  return new BuiltProcess(WORKER_SCRIPT, { ...env, WORKER_HTTP_PORT: String(port) }).ready(answersReady(port), BOOT_TIMEOUT_MS);
}

/**
 * The soak's Punctual: API processes on fixed ports (a killed one comes back on its port, so clients
 * keep their two addresses) and worker processes, all built (`nest build`), all reaching Postgres
 * through a TCP proxy that the chaos can cut.
 */
export class SoakStack {
  private constructor(
    private readonly env: Record<string, string>,
    private readonly proxy: TcpProxy,
    private readonly apiPorts: number[],
    private readonly apis: BuiltProcess[],
    private readonly workers: BuiltProcess[],
  ) {}

  /** `stores` says where Postgres (reached through the proxy) and Redis are. */
  static async start(databaseUrl: string, redisEnv: Record<string, string>, counts: { apis: number; workers: number }): Promise<SoakStack> {
    const postgres = new URL(databaseUrl);
    const proxy = await new TcpProxy(postgres.hostname, Number(postgres.port || 5432)).start();
    const env = { ...SOAK_APP_ENV, ...redisEnv, DATABASE_URL: proxy.proxied(databaseUrl) };
    const apiPorts = await Promise.all(Array.from({ length: counts.apis }, () => freePort()));
    const apis = await Promise.all(apiPorts.map((port) => startApi(env, port)));
    const workers = await Promise.all(Array.from({ length: counts.workers }, () => startWorker(env)));
    return new SoakStack(env, proxy, apiPorts, apis, workers);
  }

  get workerCount(): number {
    return this.workers.length;
  }

  get apiCount(): number {
    return this.apis.length;
  }

  /** A signing client for each API. */
  clients(): BenchClient[] {
    return this.apiPorts.map((port) => new BenchClient(port, SOAK_KEY));
  }

  /** Ends worker `index` with `signal` and starts another in its place; the pid of the one ended. */
  async replaceWorker(index: number, signal: 'SIGKILL' | 'SIGTERM'): Promise<number> {
    const old = this.workers[index];
    old.kill(signal);
    await old.exited;
    this.workers[index] = await startWorker(this.env);
    return old.pid;
  }

  /** SIGKILLs API `index` and starts it again on its port; the pid of the one killed. */
  async killApi(index: number): Promise<number> {
    const old = this.apis[index];
    old.kill('SIGKILL');
    await old.exited;
    this.apis[index] = await startApi(this.env, this.apiPorts[index]);
    return old.pid;
  }

  /** Drops every Postgres connection of every process and refuses new ones for `ms`. */
  async cutPostgres(ms: number): Promise<void> {
    this.proxy.cut();
    await new Promise((resolve) => setTimeout(resolve, ms));
    this.proxy.restore();
  }

  async stop(): Promise<void> {
    await Promise.all([...this.apis, ...this.workers].map((child) => child.stop()));
    await this.proxy.stop();
  }
}
