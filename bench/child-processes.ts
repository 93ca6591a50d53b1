import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { waitUntil } from '@app/testing';

const ROOT = join(__dirname, '..');
/** The apps run as the image and `npm run start:*` run them (NODE_OPTIONS in the Dockerfile). */
const RUNTIME_FLAGS = ['--max-semi-space-size=64'];

/** Every process the benchmark or the soak started: none may outlive it, even when it fails. */
const started = new Set<ChildProcess>();
process.on('exit', () => started.forEach((child) => child.kill('SIGKILL')));

export function track(child: ChildProcess): ChildProcess {
  started.add(child);
  child.once('exit', () => started.delete(child));
  return child;
}

/**
 * A compiled app (`script`, relative to the repository) run as its own process with `env` over
 * this one's environment. Its output is kept only to explain a failed start.
 */
export class BuiltProcess {
  private readonly child: ChildProcess;
  private output = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(script: string, env: Record<string, string>) {
    const flags = process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? []; // e.g. --cpu-prof
    this.child = track(
      spawn(process.execPath, [...RUNTIME_FLAGS, ...flags, join(ROOT, script)], {
        cwd: ROOT,
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal })));
    const keep = (chunk: Buffer) => (this.output = (this.output + chunk.toString()).slice(-20_000));
    this.child.stdout!.on('data', keep);
    this.child.stderr!.on('data', keep);
  }

  /** Waits until the process answers `probe`, or fails with its output. */
  async ready(probe: () => Promise<boolean>, timeoutMs = 30_000): Promise<this> {
    await waitUntil(
      'process ready',
      async () => {
        if (this.child.exitCode !== null || this.child.signalCode !== null) throw new Error(`process exited:\n${this.output}`);
        return probe().catch(() => false);
      },
      timeoutMs,
      100,
    );
    return this;
  }

  get pid(): number {
    return this.child.pid!;
  }

  kill(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGTERM');
    await this.exited;
  }
}
