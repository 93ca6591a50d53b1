import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { waitUntil } from '@app/testing';

const ROOT = join(__dirname, '..', '..');

/** A real API or worker process, started from the TypeScript sources, that a test can kill. */
export class AppProcess {
  private readonly child: ChildProcess;
  private output = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(app: 'api' | 'worker', env: Record<string, string> = {}) {
    this.child = spawn(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', join(ROOT, 'apps', app, 'src', 'main.ts')],
      { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'log', ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.child.stdout!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.child.stderr!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal })));
  }

  /** Resolves once the process has logged `line`; fails with its output if it died first. */
  async ready(line: RegExp, timeoutMs = 30_000): Promise<this> {
    let dead = false;
    void this.exited.then(() => (dead = true));
    await waitUntil(`process output ${line}`, () => {
      if (dead) throw new Error(`process exited before ready:\n${this.output}`);
      return line.test(this.output);
    }, timeoutMs, 50);
    return this;
  }

  logs(): string {
    return this.output;
  }

  kill(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }
}

export const API_READY = /Punctual API listening/;
export const WORKER_READY = /Punctual worker started/;
