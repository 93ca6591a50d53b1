import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { waitUntil } from '@app/testing';
import { track } from '../child-processes';

/**
 * Inside a baseline worker process: collects the lag (processing start − due time) of each job and
 * how many jobs the queue has recorded done, and prints them to the orchestrator as JSON lines, a
 * few times a second.
 */
export class LagReporter {
  private lags: number[] = [];
  private completions = 0;
  private readonly timer = setInterval(() => this.flush(), 50);

  record(lagMs: number): void {
    this.lags.push(lagMs);
  }

  completed(jobs = 1): void {
    this.completions += jobs;
  }

  flush(): void {
    if (this.lags.length === 0 && this.completions === 0) return;
    process.stdout.write(`${JSON.stringify({ lags: this.lags, completed: this.completions })}\n`);
    this.lags = [];
    this.completions = 0;
  }

  stop(): void {
    clearInterval(this.timer);
    this.flush();
  }
}

/**
 * In the orchestrator: a process of `script` (in bench/baselines/) with `env` added to this one's,
 * once it prints `ready`; its other lines go to `onLine`.
 */
export async function startBaselineProcess(script: string, env: Record<string, string>, onLine: (line: string) => void = () => {}): Promise<ChildProcess> {
  const child = track(
    spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', join(__dirname, script)], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  let ready = false;
  let pending = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const lines = (pending + chunk.toString()).split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      if (line === 'ready') ready = true;
      else onLine(line);
    }
  });
  await waitUntil(`${script} ready`, () => ready, 30_000, 50);
  return child;
}

/** Stops a baseline process with SIGTERM and waits until it has exited. */
export async function stopBaselineProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM')));
}

/** In the orchestrator: N worker processes of one baseline, the lags they report and how many jobs they completed. */
export class BaselineWorkers {
  readonly lags: number[] = [];
  private completions = 0;
  private readonly children: ChildProcess[] = [];

  static async start(script: string, count: number, env: Record<string, string>): Promise<BaselineWorkers> {
    const workers = new BaselineWorkers();
    await Promise.all(Array.from({ length: count }, () => workers.spawn(script, env)));
    return workers;
  }

  private async spawn(script: string, env: Record<string, string>): Promise<void> {
    const child = await startBaselineProcess(script, env, (line) => {
      if (!line.startsWith('{')) return;
      const report = JSON.parse(line) as { lags: number[]; completed: number };
      this.lags.push(...report.lags);
      this.completions += report.completed;
    });
    this.children.push(child);
  }

  get completed(): number {
    return this.completions;
  }

  /** Forgets the jobs run so far (the warm-up). */
  forget(): void {
    this.lags.splice(0);
    this.completions = 0;
  }

  get pids(): number[] {
    return this.children.map((c) => c.pid!);
  }

  async stop(): Promise<void> {
    await Promise.all(this.children.map(stopBaselineProcess));
  }
}
