import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigError, exitCleanlyOnSignals, loadConfig, logLevelsUpTo } from '@app/config';
import { ActionTypeDefinition } from '@app/fulfillment';
import { ApiModule } from './api.module';
import { configureApiApp } from './http/configure-api-app';

async function bootstrap(actionTypes?: readonly ActionTypeDefinition[]): Promise<void> {
  const config = loadConfig();
  const app = await NestFactory.create(ApiModule.forRoot(actionTypes), {
    bodyParser: false,
    logger: logLevelsUpTo(config.logLevel),
  });
  configureApiApp(app);
  exitCleanlyOnSignals(app, 'Punctual API');
  await app.listen(config.http.port);
  Logger.log(`Punctual API listening on http://localhost:${config.http.port} (docs at /docs)`, 'Bootstrap');
}

/**
 * Runs an API process that accepts the given action types (default: the built-in ones), or
 * exits 1 with the reason. A build with its own types calls this from its own entry file.
 */
export function runApi(actionTypes?: readonly ActionTypeDefinition[]): void {
  bootstrap(actionTypes).catch((error: unknown) => {
    const message = error instanceof ConfigError ? error.message : `Punctual API failed to start: ${(error as Error).stack ?? error}`;
    process.stderr.write(`${message}\n`);
    process.exit(1);
  });
}
