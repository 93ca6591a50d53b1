import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { waitUntil } from '@app/testing';
import { track } from '../child-processes';

/**
 * Inside a baseline worker process: collects the lag (processing start − due time) of each
 * finished job and prints them to the orchestrator as JSON lines, a few times a second.
 */
export class LagReporter {
  private lags: number[] = [];
  private readonly timer = setInterval(() => this.flush(), 50);

  record(lagMs: number): void {
    this.lags.push(lagMs);
  }

  flush(): void {
    if (this.lags.length === 0) return;
    process.stdout.write(`${JSON.stringify({ lags: this.lags })}\n`);
    this.lags = [];
  }

  stop(): void {
    clearInterval(this.timer);
    this.flush();
  }
}

/** In the orchestrator: N worker processes of one baseline, and the lags they report. */
export class BaselineWorkers {
  readonly lags: number[] = [];
  private readonly children: ChildProcess[] = [];

  static async start(script: string, count: number, env: Record<string, string>): Promise<BaselineWorkers> {
    const workers = new BaselineWorkers();
    await Promise.all(Array.from({ length: count }, () => workers.spawn(script, env)));
    return workers;
  }

  private async spawn(script: string, env: Record<string, string>): Promise<void> {
    const child = track(
      spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', join(__dirname, script)], {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'inherit'],
      }),
    );
    this.children.push(child);
    let ready = false;
    let pending = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      const lines = (pending + chunk.toString()).split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        if (line === 'ready') ready = true;
        else if (line.startsWith('{')) this.lags.push(...(JSON.parse(line) as { lags: number[] }).lags);
      }
    });
    await waitUntil(`${script} worker ready`, () => ready, 30_000, 50);
  }

  get pids(): number[] {
    return this.children.map((c) => c.pid!);
  }

  async stop(): Promise<void> {
    await Promise.all(this.children.map((c) => new Promise((resolve) => (c.once('exit', resolve), c.kill('SIGTERM')))));
  }
}
