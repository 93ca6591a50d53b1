import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigError, exitCleanlyOnSignals, loadConfig, logLevelsUpTo } from '@app/config';
import { WorkerModule, WorkerModuleOptions } from './worker.module';

/** A worker process: no HTTP, just queue consumers; any number may run side by side. */
async function bootstrap(options: WorkerModuleOptions): Promise<void> {
  const config = loadConfig();
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(options), { logger: logLevelsUpTo(config.logLevel) });
  exitCleanlyOnSignals(app, 'Punctual worker');
  Logger.log('Punctual worker started', 'Bootstrap');
}

/**
 * Runs a worker process with the given action types and fulfillment modules (default: the
 * built-in ones), or exits 1 with the reason. A build with its own types calls this from its own entry file.
 */
export function runWorker(options: WorkerModuleOptions = {}): void {
  bootstrap(options).catch((error: unknown) => {
    const message = error instanceof ConfigError ? error.message : `Punctual worker failed to start: ${(error as Error).stack ?? error}`;
    process.stderr.write(`${message}\n`);
    process.exit(1);
  });
}
