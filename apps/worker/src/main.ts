import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigError, exitCleanlyOnSignals, loadConfig, logLevelsUpTo } from '@app/config';
import { WorkerModule } from './worker.module';

/** A worker process: no HTTP, just queue consumers; any number may run side by side. */
async function bootstrap(): Promise<void> {
  const config = loadConfig();
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(), { logger: logLevelsUpTo(config.logLevel) });
  exitCleanlyOnSignals(app, 'Punctual worker');
  Logger.log('Punctual worker started', 'Bootstrap');
}

bootstrap().catch((error: unknown) => {
  const message = error instanceof ConfigError ? error.message : `Punctual worker failed to start: ${(error as Error).stack ?? error}`;
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
