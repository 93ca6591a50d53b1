import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigError, exitCleanlyOnSignals, loadConfig, logLevelsUpTo } from '@app/config';
import { ApiModule } from './api.module';
import { configureApiApp } from './http/configure-api-app';

async function bootstrap(): Promise<void> {
  const config = loadConfig();
  const app = await NestFactory.create(ApiModule.forRoot(), {
    bodyParser: false,
    logger: logLevelsUpTo(config.logLevel),
  });
  configureApiApp(app);
  exitCleanlyOnSignals(app, 'Punctual API');
  await app.listen(config.http.port);
  Logger.log(`Punctual API listening on http://localhost:${config.http.port} (docs at /docs)`, 'Bootstrap');
}

bootstrap().catch((error: unknown) => {
  const message = error instanceof ConfigError ? error.message : `Punctual API failed to start: ${(error as Error).stack ?? error}`;
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
