import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigError, exitCleanlyOnSignals, loadConfig, loadEnvFile } from '@app/config';
import { appLogger, startTracing } from '@app/observability';
import { StoreUnreachableError, assertStoresReachable } from '../store-reachability';
import { WorkerModule, WorkerModuleOptions } from './worker.module';

/** A worker process: queue consumers, and an HTTP port for metrics and health only; any number may run side by side. */
async function bootstrap(options: WorkerModuleOptions): Promise<void> {
  loadEnvFile();
  const config = loadConfig();
  await assertStoresReachable(config);
  startTracing(config, 'punctual-worker');
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(options), { logger: appLogger(config) });
  exitCleanlyOnSignals(app, 'Punctual worker');
  Logger.log('Punctual worker started', 'Bootstrap');
}

/**
 * Runs a worker process with the given action types and fulfillment modules (default: the
 * built-in ones), or exits 1 with the reason. A build with its own types calls this from its own entry file.
 */
export function runWorker(options: WorkerModuleOptions = {}): void {
  bootstrap(options).catch((error: unknown) => {
    const message =
      error instanceof ConfigError
        ? error.message
        : error instanceof StoreUnreachableError
          ? `Punctual worker cannot start: ${error.message}`
          : `Punctual worker failed to start: ${String((error as Error).stack ?? error)}`;
    process.stderr.write(`${message}\n`);
    process.exit(1);
  });
}
