import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { waitUntil } from '@app/testing';
import { childAnswersDirectory } from './openapi-answers';

const ROOT = join(__dirname, '..', '..');
const TS_NODE = require.resolve('ts-node/register/transpile-only');
const TYPESCRIPT = require.resolve('typescript');
const RECORD_ANSWERS = require.resolve('./record-answers.preload');

/** A real API or worker process, started from the TypeScript sources, that a test can kill. */
export class AppProcess {
  private readonly child: ChildProcess;
  private output = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  /**
   * `env` adds to this process's environment; an `undefined` value leaves that variable out.
   * `entry` is a TypeScript entry file of its own instead of the app's main.ts; `nodeArgs` runs
   * compiled JavaScript instead (`['dist/main.js', 'api']`), as a project built on the packages does.
   */
  constructor(
    app: 'api' | 'worker',
    env: Record<string, string | undefined> = {},
    options: { cwd?: string; entry?: string; nodeArgs?: readonly string[] } = {},
  ) {
    // An API process records its answers for the spec file's check against its OpenAPI document (test/openapi-answers.setup.ts).
    const recording = app === 'api';
    this.child = spawn(
      process.execPath,
      [
        ...(recording ? ['-r', TS_NODE, '-r', RECORD_ANSWERS] : []),
        ...(options.nodeArgs ?? [
          '-r',
          TS_NODE,
          '-r',
          require.resolve('tsconfig-paths/register'),
          options.entry ?? join(ROOT, 'apps', app, 'src', 'main.ts'),
        ]),
      ],
      {
        cwd: options.cwd ?? ROOT,
        // Preloads are resolved here and ts-node and tsconfig-paths told where tsconfig.json is, and ts-node this
        // repository's TypeScript (a packed project's own may be one without the compiler API), so any working directory will do.
        env: {
          ...process.env,
          TS_NODE_PROJECT: join(ROOT, 'tsconfig.json'),
          TS_NODE_COMPILER: TYPESCRIPT,
          LOG_LEVEL: 'log',
          ...(recording ? { PUNCTUAL_RECORD_ANSWERS: childAnswersDirectory() } : {}),
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    this.child.stdout!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.child.stderr!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal })));
  }

  /**
   * Resolves once the process has logged `line`; fails with its output if it died first. An app
   * compiles its TypeScript as it starts, which on a busy 2-core machine has taken over 30 s.
   */
  async ready(line: RegExp, timeoutMs = 90_000): Promise<this> {
    let dead = false;
    void this.exited.then(() => (dead = true));
    await waitUntil(
      `process output ${line}`,
      () => {
        if (dead) throw new Error(`process exited before ready:\n${this.output}`);
        return line.test(this.output);
      },
      timeoutMs,
      50,
    );
    return this;
  }

  logs(): string {
    return this.output;
  }

  /** A worker process's metrics and health server, at the port it logged (WORKER_HTTP_PORT=0 takes any). */
  workerHttpUrl(): string {
    const port = /Metrics and health on port (\d+)/.exec(this.output)?.[1];
    if (!port) throw new Error(`no worker HTTP port logged yet:\n${this.output}`);
    return `http://127.0.0.1:${port}`;
  }

  kill(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }
}

export const API_READY = /Punctual API listening/;
export const WORKER_READY = /Punctual worker started/;
