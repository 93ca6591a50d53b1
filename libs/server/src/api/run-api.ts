import 'reflect-metadata';
import { Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigError, exitCleanlyOnSignals, loadConfig, loadEnvFile } from '@app/config';
import { ActionTypeDefinition } from '@punctual/sdk';
import { appLogger, startTracing } from '@app/observability';
import { StoreUnreachableError, assertStoresReachable } from '../store-reachability';
import { ApiModule } from './api.module';
import { configureApiApp } from './http/configure-api-app';
import { connectGrpc } from './grpc/connect-grpc';
import { startupBanner } from './http/startup-banner';
import { connectRpc } from './rpc/connect-rpc';

async function bootstrap(actionTypes?: readonly ActionTypeDefinition[]): Promise<void> {
  loadEnvFile();
  const config = loadConfig();
  await assertStoresReachable(config);
  startTracing(config, 'punctual-api');
  const app = await NestFactory.create(ApiModule.forRoot(actionTypes), { bodyParser: false, logger: appLogger(config) });
  configureApiApp(app);
  exitCleanlyOnSignals(app, 'Punctual API');
  await connectRpc(app);
  await connectGrpc(app);
  await app.listen(config.http.port);
  const { port } = (app.getHttpServer() as Server).address() as AddressInfo;
  Logger.log(startupBanner(port, config.metrics.enabled), 'Bootstrap');
}

/**
 * Runs an API process that accepts the given action types (default: the built-in ones), or
 * exits 1 with the reason. A build with its own types calls this from its own entry file.
 */
export function runApi(actionTypes?: readonly ActionTypeDefinition[]): void {
  bootstrap(actionTypes).catch((error: unknown) => {
    const message =
      error instanceof ConfigError
        ? error.message
        : error instanceof StoreUnreachableError
          ? `Punctual API cannot start: ${error.message}`
          : `Punctual API failed to start: ${String((error as Error).stack ?? error)}`;
    process.stderr.write(`${message}\n`);
    process.exit(1);
  });
}
